import { randomBytes } from 'node:crypto';
import { unitOfWork } from '@wms/platform';
import type { ApiKeyInput, CreatedApiKey } from '@wms/api-keys';
import {
  DEFAULT_TENANT_CODE,
  hashPassword,
  toPublicUser,
  userModel,
  type AdminModule,
  type PublicUser,
  type Role,
} from '@wms/identity';
import type { TestContext } from './test-context.js';
import { request, type SessionAnswer } from './http.js';

export interface CreatedUser {
  user: PublicUser;
  password: string;
}

/** Inserts a user straight into this context's database (no HTTP), for arranging a test. */
export async function createUser(
  ctx: Pick<TestContext, 'runtime' | 'config'>,
  attributes: {
    email?: string;
    password?: string;
    role?: Role;
    tenantId?: string | null;
    adminModules?: AdminModule[];
    adminModulesWrite?: AdminModule[];
    status?: 'active' | 'inactive' | 'locked';
  } = {},
): Promise<CreatedUser> {
  const password = attributes.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const row = await userModel(ctx.runtime.db).create({
    email: attributes.email ?? `user-${randomBytes(4).toString('hex')}@example.test`,
    passwordHash: await hashPassword(password, ctx.config.bcryptRounds),
    firstName: 'Test',
    lastName: 'User',
    role: attributes.role ?? 'viewer',
    tenantId: attributes.tenantId ?? null,
    adminModules: attributes.adminModules ?? [],
    adminModulesWrite: attributes.adminModulesWrite ?? [],
    status: attributes.status ?? 'active',
  });
  return { user: toPublicUser(row.get({ plain: true })), password };
}

/** Logs in through the gateway and returns the access token. */
export async function loginAs(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await request<SessionAnswer>(baseUrl, 'POST', '/api/v1/auth/login', { body: { email, password } });
  if (response.status !== 200)
    throw new Error(`login of ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.accessToken;
}

export async function defaultTenantId(ctx: Pick<TestContext, 'services'>): Promise<string> {
  const tenant = await ctx.services.tenants.findByCode(DEFAULT_TENANT_CODE);
  if (!tenant) throw new Error('seed did not create the DEFAULT tenant');
  return tenant.id;
}

/** Creates a tenant with a warehouse (and its RECEIVING location). */
export async function createTenantWithWarehouse(
  ctx: Pick<TestContext, 'services'>,
  code = `T${randomBytes(3).toString('hex').toUpperCase()}`,
  warehouseCode = 'WH1',
) {
  const tenant = await ctx.services.tenants.create({ code, name: `Tenant ${code}` });
  const warehouse = await ctx.services.warehouses.create({
    tenantId: tenant.id,
    code: warehouseCode,
    name: `Warehouse ${warehouseCode}`,
  });
  return { tenant, warehouse };
}

/** Creates a sandbox tenant with a warehouse (and its RECEIVING location): its keys may run simulations. */
export async function createSandboxTenant(
  ctx: Pick<TestContext, 'services'>,
  code = `S${randomBytes(3).toString('hex').toUpperCase()}`,
  warehouseCode = 'WH1',
) {
  const tenant = await ctx.services.tenants.create({ code, name: `Sandbox ${code}`, sandbox: true });
  const warehouse = await ctx.services.warehouses.create({
    tenantId: tenant.id,
    code: warehouseCode,
    name: `Warehouse ${warehouseCode}`,
  });
  return { tenant, warehouse };
}

/** Creates an API key through the service (no HTTP) and returns the record with its raw key. */
/**
 * A key through the service, with the deployment's default version (API_DEFAULT_VERSION) unless `apiVersion`
 * says otherwise, as a key the admin API creates.
 */
export async function createApiKey(
  ctx: Pick<TestContext, 'services'>,
  input: Partial<ApiKeyInput> & { scopes?: string[] } = {},
): Promise<CreatedApiKey> {
  return ctx.services.apiKeys.create(
    {
      name: input.name ?? 'test key',
      scopes: input.scopes ?? ['read', 'write'],
      ...input,
    },
    null,
  );
}

/** Upserts items, partners and locations of a tenant through the master-data service (no HTTP), for arranging document tests. */
export async function createMasterData(
  ctx: Pick<TestContext, 'runtime' | 'services'>,
  tenantId: string,
  data: {
    items?: { sku: string; baseUomCode?: string; tracking?: 'none' | 'lot' | 'serial'; name?: string }[];
    partners?: { code: string; type: 'supplier' | 'customer' | 'carrier' | 'other'; name?: string }[];
    locations?: { warehouseCode: string; code: string; pickFace?: boolean }[];
  },
): Promise<void> {
  await unitOfWork(ctx.runtime.db, async (transaction) => {
    const context = { tenantId, transaction };
    const items = (data.items ?? []).map((item) => ({
      name: `Item ${item.sku}`,
      baseUomCode: 'EA',
      tracking: 'none' as const,
      ...item,
    }));
    const partners = (data.partners ?? []).map((partner) => ({ name: `Partner ${partner.code}`, ...partner }));
    const locations = (data.locations ?? []).map((location) => ({
      type: 'storage' as const,
      pickFace: false,
      ...location,
    }));
    if (items.length) await ctx.services.masterData.upsertItems(context, items);
    if (partners.length) await ctx.services.masterData.upsertPartners(context, partners);
    if (locations.length) await ctx.services.masterData.upsertLocations(context, locations);
  });
}
