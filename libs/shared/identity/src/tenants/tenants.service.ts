import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { isUuid } from '@wms/platform';
import { tenantModel, type TenantAttributes } from './tenant.model.js';
import type { TenantInput } from './tenant.schema.js';

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
  private readonly sandboxFlags = new Map<string, boolean>();

  constructor(private readonly db: Database) {}

  async create(input: TenantInput, transaction?: Transaction): Promise<Tenant> {
    const existing = await this.findByCode(input.code);
    if (existing) throw AppError.conflict('TENANT_EXISTS', `Tenant code ${input.code} already exists`);
    try {
      const row = await tenantModel(this.db).create(
        { code: input.code, name: input.name, sandbox: input.sandbox ?? false },
        { transaction },
      );
      return toTenant(row.get({ plain: true }));
    } catch (error) {
      if ((error as { name?: string }).name === 'SequelizeUniqueConstraintError') {
        throw AppError.conflict('TENANT_EXISTS', `Tenant code ${input.code} already exists`);
      }
      throw error;
    }
  }

  async list(): Promise<Tenant[]> {
    const rows = await tenantModel(this.db).findAll({ order: [['code', 'ASC']], raw: true });
    return rows.map((row) => toTenant(row as unknown as TenantAttributes));
  }

  async findById(id: string): Promise<Tenant | null> {
    if (!isUuid(id)) return null;
    const row = await tenantModel(this.db).findByPk(id, { raw: true });
    return row ? toTenant(row as unknown as TenantAttributes) : null;
  }

  async findByCode(code: string): Promise<Tenant | null> {
    const row = await tenantModel(this.db).findOne({ where: { code }, raw: true });
    return row ? toTenant(row as unknown as TenantAttributes) : null;
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
