import { AppError, type Logger } from '@wms/platform';
import type { ImportOwner } from './imports.repository.js';
import type { TenantUploadLeases, UploadLease } from './tenant-upload-leases.js';

/** An upload's hold on the slots: released once its file is stored or refused. */
export interface UploadSlot {
  /** Other uploads of the same owner in flight on this gateway when this one took its slot. */
  readonly ownerOthers: number;
  release(): void;
}

export interface UploadSlotLimits {
  /** IMPORT_MAX_UPLOADS_IN_FLIGHT: this gateway's uploads at once. */
  maxInFlight: number;
  /** IMPORT_MAX_UPLOADS_PER_TENANT: one tenant's at once, on this gateway and across all of them. */
  maxPerTenant: number;
}

/**
 * The uploads one gateway streams into PostgreSQL at once, each on a connection of its own: at most
 * `maxInFlight`, of which one tenant holds at most `maxPerTenant` (here, and across every gateway through
 * `shared`), so one tenant's slow files never hold every slot another tenant's upload needs. Counted per
 * owner too, so the per-key limit sees uploads that are not yet stored. Taken before a byte of the body is
 * read, so a refusal costs the gateway nothing.
 */
export class UploadSlots {
  private inFlight = 0;
  private readonly byOwner = new Map<string, number>();
  private readonly byTenant = new Map<string, number>();

  constructor(
    private readonly limits: UploadSlotLimits,
    /** The tenants' slots across gateways (null: this gateway's count only). */
    private readonly shared: TenantUploadLeases | null = null,
    private readonly logger?: Logger,
  ) {}

  /** A slot, or 503 UPLOADS_BUSY when every one, or the tenant's share, is taken (the answer carries Retry-After). */
  async take(tenantId: string, owner: ImportOwner): Promise<UploadSlot> {
    const { maxInFlight, maxPerTenant } = this.limits;
    if (this.inFlight >= maxInFlight)
      throw busy(
        `This gateway is receiving ${maxInFlight} files already (IMPORT_MAX_UPLOADS_IN_FLIGHT); retry shortly`,
      );
    if ((this.byTenant.get(tenantId) ?? 0) >= maxPerTenant) throw tenantBusy(maxPerTenant);
    const ownerKey = ownerKeyOf(owner);
    const ownerOthers = this.byOwner.get(ownerKey) ?? 0;
    // Counted before Redis is asked, so the uploads arriving meanwhile see this one.
    this.inFlight += 1;
    add(this.byOwner, ownerKey, 1);
    add(this.byTenant, tenantId, 1);
    let released = false;
    const releaseHere = () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      add(this.byOwner, ownerKey, -1);
      add(this.byTenant, tenantId, -1);
    };
    let lease: UploadLease | null = null;
    try {
      lease = (await this.shared?.take(tenantId)) ?? null;
      if (this.shared && lease === null) {
        releaseHere();
        throw tenantBusy(maxPerTenant);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      // Redis away: this gateway's own count of the tenant still bounds it; only the fleet-wide one is lost.
      this.logger?.warn({ err: error }, "the tenant's upload slots across gateways could not be counted");
    }
    return {
      ownerOthers,
      release: () => {
        lease?.release();
        releaseHere();
      },
    };
  }
}

function busy(message: string): AppError {
  return new AppError('UPLOADS_BUSY', message);
}

function tenantBusy(maxPerTenant: number): AppError {
  return busy(
    `This tenant is sending ${maxPerTenant} files already (IMPORT_MAX_UPLOADS_PER_TENANT); retry when one is stored`,
  );
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const count = (counts.get(key) ?? 0) + delta;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

function ownerKeyOf(owner: ImportOwner): string {
  return 'apiKeyId' in owner ? `key:${owner.apiKeyId}` : `user:${owner.userId}`;
}
