import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { tenantModel, type TenantAttributes } from './tenant.model.js';

/** The tenants table; every method returns plain objects. */
export class TenantsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    input: { code: string; name: string; sandbox?: boolean },
    transaction?: Transaction,
  ): Promise<TenantAttributes> {
    const row = await tenantModel(this.db).create(
      { code: input.code, name: input.name, sandbox: input.sandbox ?? false },
      { transaction },
    );
    return row.get({ plain: true });
  }

  /** The tenant of this code, inserted when missing (several processes may run this at once); answers its id. */
  async ensure(input: { code: string; name: string }, transaction: Transaction): Promise<string> {
    await this.db.sequelize.query('INSERT INTO tenants (code, name) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING', {
      bind: [input.code, input.name],
      transaction,
    });
    const [rows] = (await this.db.sequelize.query('SELECT id FROM tenants WHERE code = $1', {
      bind: [input.code],
      transaction,
    })) as [Array<{ id: string }>, unknown];
    return rows[0]!.id;
  }

  async list(): Promise<TenantAttributes[]> {
    const rows = await tenantModel(this.db).findAll({ order: [['code', 'ASC']], raw: true });
    return rows as unknown as TenantAttributes[];
  }

  async findById(id: string): Promise<TenantAttributes | null> {
    const row = await tenantModel(this.db).findByPk(id, { raw: true });
    return row as unknown as TenantAttributes | null;
  }

  async findByCode(code: string): Promise<TenantAttributes | null> {
    const row = await tenantModel(this.db).findOne({ where: { code }, raw: true });
    return row as unknown as TenantAttributes | null;
  }

  /** True when a tenant of this id exists (the id is a UUID the caller validated). */
  async exists(id: string): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query('SELECT 1 FROM tenants WHERE id = $1', { bind: [id] })) as [
      unknown[],
      unknown,
    ];
    return rows.length > 0;
  }
}
