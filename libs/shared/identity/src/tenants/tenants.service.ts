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
  private readonly sandboxFlags = new Map<string, boolean>();

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
   * never changes, so it is read once per process and kept.
   */
  async isSandbox(id: string): Promise<boolean> {
    const known = this.sandboxFlags.get(id);
    if (known !== undefined) return known;
    const tenant = await this.findById(id);
    if (!tenant) return false;
    if (this.sandboxFlags.size >= SANDBOX_FLAGS_KEPT) this.sandboxFlags.clear();
    this.sandboxFlags.set(id, tenant.sandbox);
    return tenant.sandbox;
  }

  async requireExisting(id: string): Promise<Tenant> {
    const tenant = await this.findById(id);
    if (!tenant) throw AppError.referenceNotFound(`Tenant ${id} not found`);
    return tenant;
  }
}
