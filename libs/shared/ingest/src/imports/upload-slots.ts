import { AppError } from '@wms/platform';
import type { ImportOwner } from './imports.repository.js';

/** An upload's hold on the slots: released once its file is stored or refused. */
export interface UploadSlot {
  /** Other uploads of the same owner in flight on this gateway when this one took its slot. */
  readonly ownerOthers: number;
  release(): void;
}

/**
 * The uploads one gateway streams into PostgreSQL at once, each on a connection of its own: at most
 * `maxInFlight`, counted per owner too, so the per-key limit sees uploads that are not yet stored. Taken
 * before a byte of the body is read, so a refusal costs the gateway nothing.
 */
export class UploadSlots {
  private inFlight = 0;
  private readonly byOwner = new Map<string, number>();

  constructor(private readonly maxInFlight: number) {}

  /** A slot, or 503 UPLOADS_BUSY when every one is taken (the answer carries Retry-After). */
  take(owner: ImportOwner): UploadSlot {
    if (this.inFlight >= this.maxInFlight)
      throw new AppError(
        503,
        'UPLOADS_BUSY',
        `This gateway is receiving ${this.maxInFlight} files already (IMPORT_MAX_UPLOADS_IN_FLIGHT); retry shortly`,
      );
    const key = ownerKey(owner);
    const ownerOthers = this.byOwner.get(key) ?? 0;
    this.inFlight += 1;
    this.byOwner.set(key, ownerOthers + 1);
    let released = false;
    return {
      ownerOthers,
      release: () => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        const left = (this.byOwner.get(key) ?? 1) - 1;
        if (left > 0) this.byOwner.set(key, left);
        else this.byOwner.delete(key);
      },
    };
  }
}

function ownerKey(owner: ImportOwner): string {
  return 'apiKeyId' in owner ? `key:${owner.apiKeyId}` : `user:${owner.userId}`;
}
