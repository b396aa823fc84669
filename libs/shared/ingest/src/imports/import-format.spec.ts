import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '@wms/platform';
import { NdjsonCopyRows, spreadsheetCsv } from './import-format.js';

const MiB = 1 << 20;

/** Feeds `pieces` through the splitter; the COPY text it wrote (its last 1,000 characters), or the error it ended with. */
async function split(pieces: Iterable<Buffer>, maxRowBytes: number): Promise<{ copyText: string; error?: unknown }> {
  let copyText = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      copyText = (copyText + chunk.toString()).slice(-1_000);
      done();
    },
  });
  try {
    await pipeline(Readable.from(pieces), new NdjsonCopyRows('import-1', 1_000, maxRowBytes), sink);
    return { copyText };
  } catch (error) {
    return { copyText, error };
  }
}

function* longLineInPieces(bytes: number, piece: number): Generator<Buffer> {
  const block = Buffer.alloc(piece, 'a');
  yield Buffer.from('{"sku":"');
  for (let sent = 0; sent < bytes; sent += piece) yield block;
  yield Buffer.from('"}\n{"sku":"NEXT"}\n');
}

describe('the NDJSON splitter of file imports', () => {
  it('splits lines across pieces, numbering each line of the file and skipping blank ones', async () => {
    const pieces = ['{"sku":"A"', '}\n\n{"sku"', ':"B"}\r\n{"sku":"C"}'].map((text) => Buffer.from(text));

    const { copyText, error } = await split(pieces, 1_024);

    expect(error).toBeUndefined();
    expect(copyText).toBe('import-1\t1\t1\t{"sku":"A"}\nimport-1\t2\t3\t{"sku":"B"}\nimport-1\t3\t4\t{"sku":"C"}\n');
  });

  it('reads a 32 MiB line that arrives in 4 KiB pieces in linear time: each byte is scanned once', async () => {
    const started = performance.now();

    const { copyText, error } = await split(longLineInPieces(32 * MiB, 4 * 1024), 64 * MiB);

    expect(error).toBeUndefined();
    expect(copyText.endsWith('import-1\t2\t2\t{"sku":"NEXT"}\n')).toBe(true);
    // Re-joining the open line at every piece (8,192 of them) copies and scans over 100 GiB; once, 32 MiB.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('ends with 413 ROW_TOO_LARGE naming the line as soon as an open line passes the limit', async () => {
    const pieces = [Buffer.from('{"sku":"A"}\n'), ...longLineInPieces(4 * MiB, 64 * 1024)];

    const { error } = await split(pieces, MiB);

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 413, code: 'ROW_TOO_LARGE', extra: { line: 2 } });
  });

  it('takes a line of exactly the limit, newline not counted', async () => {
    const line = `{"sku":"${'a'.repeat(100 - 10)}"}`;

    const within = await split([Buffer.from(`${line}\n`)], 100);
    const over = await split([Buffer.from(`${line}a\n`)], 100);

    expect(line).toHaveLength(100);
    expect(within.error).toBeUndefined();
    expect(over.error).toMatchObject({ code: 'ROW_TOO_LARGE' });
  });
});

describe('the errors file in CSV', () => {
  it("prefixes a cell a spreadsheet reads as a formula with ', quotes where RFC 4180 needs it, and leaves plain negative numbers", () => {
    const text = spreadsheetCsv([['=1+1', '+CMD', '-A1', '@SUM(A1)', '\tx', '\rx', 'a,b', '-5', '-1.5', 'plain', 7]]);

    expect(text).toBe(`'=1+1,'+CMD,'-A1,'@SUM(A1),'\tx,"'\rx","a,b",-5,-1.5,plain,7\r\n`);
  });
});
