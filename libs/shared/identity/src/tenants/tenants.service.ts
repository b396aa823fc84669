import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { isUuid } from '@wms/platform';
import type { TenantAttributes } from './tenant.model.js';
import type { TenantInput } from './tenant.schema.js';
import { TenantsRepository } from './tenants.repository.js';

/** The tenant the seed routine creates; self-registered users join it. */
export const DEFAULT_TENANT_CODE = 'DEFAULT';

export interface Tenant {
  id: string;
  code: string;
  name: string;
  /** Its API keys may run simulations; its events carry `"sandbox": true`. Fixed at creation. */
  sandbox: boolean;
  createdAt: Date;
}

function toTenant(row: TenantAttributes): Tenant {
  return { id: row.id, code: row.code, name: row.name, sandbox: row.sandbox, createdAt: row.createdAt };
}

/** Tenants whose sandbox flag a process keeps; beyond, the map starts over (the flag never changes). */
const SANDBOX_FLAGS_KEPT = 10_000;

export class TenantsService {
  private readonly repository: TenantsRepository;
  /** Each tenant's flag as one read per process, shared by every caller that asks while it is under way. */
  private readonly sandboxFlags = new Map<string, Promise<boolean>>();

  constructor(db: Database) {
    this.repository = new TenantsRepository(db);
  }

  async create(input: TenantInput, transaction?: Transaction): Promise<Tenant> {
    const existing = await this.findByCode(input.code);
    if (existing) throw AppError.conflict('TENANT_EXISTS', `Tenant code ${input.code} already exists`);
    try {
      return toTenant(await this.repository.insert(input, transaction));
    } catch (error) {
      if ((error as { name?: string }).name === 'SequelizeUniqueConstraintError') {
        throw AppError.conflict('TENANT_EXISTS', `Tenant code ${input.code} already exists`);
      }
      throw error;
    }
  }

  async list(): Promise<Tenant[]> {
    return (await this.repository.list()).map(toTenant);
  }

  async findById(id: string): Promise<Tenant | null> {
    if (!isUuid(id)) return null;
    const row = await this.repository.findById(id);
    return row ? toTenant(row) : null;
  }

  async findByCode(code: string): Promise<Tenant | null> {
    const row = await this.repository.findByCode(code);
    return row ? toTenant(row) : null;
  }

  /**
   * Whether the tenant is a sandbox (false for one that does not exist). The flag is set at creation and
   * never changes, so it is read once per process and kept; callers that ask while it is being read share
   * that read (a worker's concurrent deliveries of one tenant ask together). A tenant not found, or a read
   * that failed, is not kept.
   */
  isSandbox(id: string): Promise<boolean> {
    const known = this.sandboxFlags.get(id);
    if (known) return known;
    const read = this.findById(id).then(
      (tenant) => {
        // A tenant not found may be created later: asked again, it is read again.
        if (!tenant) this.sandboxFlags.delete(id);
        return tenant?.sandbox ?? false;
      },
      (error: unknown) => {
        this.sandboxFlags.delete(id);
        throw error;
      },
    );
    if (this.sandboxFlags.size >= SANDBOX_FLAGS_KEPT) this.sandboxFlags.clear();
    this.sandboxFlags.set(id, read);
    return read;
  }

  async requireExisting(id: string): Promise<Tenant> {
    const tenant = await this.findById(id);
    if (!tenant) throw AppError.referenceNotFound(`Tenant ${id} not found`);
    return tenant;
  }
}
