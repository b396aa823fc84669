/**
 * An upload's bytes while the client sends them, bounded: writes may come at any offset (clients send several
 * at once), and the file is as long as its furthest write. Past the limit the buffer lets its bytes go and
 * stays failed, so the upload can only end refused.
 */
export class UploadBuffer {
  private chunks: Array<{ offset: number; data: Buffer }> = [];
  private extent = 0;
  private failed = false;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.extent;
  }

  get exceeded(): boolean {
    return this.failed;
  }

  /** Keeps a copy of `data` at `offset`; false (and the buffer failed) when the file would pass the limit. */
  write(offset: number, data: Buffer): boolean {
    if (this.failed) return false;
    const end = offset + data.length;
    if (end > this.maxBytes) {
      this.failed = true;
      this.chunks = [];
      return false;
    }
    // ssh2 may hand over a view of its own buffer: the copy is ours.
    this.chunks.push({ offset, data: Buffer.from(data) });
    this.extent = Math.max(this.extent, end);
    return true;
  }

  /** The file as written (a later write over the same bytes wins). */
  content(): Buffer {
    const content = Buffer.alloc(this.extent);
    for (const { offset, data } of this.chunks) data.copy(content, offset);
    return content;
  }
}
