import { QueryTypes } from 'sequelize';
import type { TestContext } from './test-context.js';
import { createApiKey, createMasterData, createTenantWithWarehouse, createUser, loginAs } from './factories.js';
import { request, type HttpResponse, type JsonNode } from './http.js';

/** One item of a tenant of its own at `WH1/A-01`, with a key that reads it and a user who adjusts it. */
export interface StockItem {
  sku: string;
  /** The raw API key of the item's tenant (scopes read and write). */
  key: string;
  /** `GET /stock?sku=…` through the gateway at `baseUrl`, with the key. */
  inquire(baseUrl: string): Promise<HttpResponse<{ data?: JsonNode }>>;
  /** `POST /api/v1/stock/adjustments` of `qtyDelta` through the gateway at `baseUrl`, as the user. */
  adjust(baseUrl: string, qtyDelta: number, headers?: Record<string, string>): Promise<HttpResponse>;
  /** The item's stock on hand as the test context's database has it. */
  onHand(): Promise<number>;
}

/** Arranges a StockItem; the user signs in through the gateway at `loginUrl`. */
export async function arrangeStockItem(
  ctx: Pick<TestContext, 'runtime' | 'services' | 'config'>,
  loginUrl: string,
  sku: string,
): Promise<StockItem> {
  const { tenant } = await createTenantWithWarehouse(ctx);
  await createMasterData(ctx, tenant.id, { items: [{ sku }], locations: [{ warehouseCode: 'WH1', code: 'A-01' }] });
  const key = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
  const user = await createUser(ctx, {
    role: 'manager',
    tenantId: tenant.id,
    adminModules: ['inventory'],
    adminModulesWrite: ['inventory'],
  });
  const token = await loginAs(loginUrl, user.user.email, user.password);
  return {
    sku,
    key,
    inquire: (baseUrl) =>
      request(baseUrl, 'GET', `/api/v1/integration/v1/stock?sku=${encodeURIComponent(sku)}`, {
        headers: { 'x-api-key': key },
      }),
    adjust: (baseUrl, qtyDelta, headers = {}) =>
      request(baseUrl, 'POST', '/api/v1/stock/adjustments', {
        token,
        headers,
        body: { warehouseCode: 'WH1', locationCode: 'A-01', sku, qtyDelta, reason: 'counted again' },
      }),
    async onHand() {
      const [row] = await ctx.runtime.db.sequelize.query<{ total: number }>(
        `SELECT coalesce(sum(s.qty_on_hand), 0)::float8 AS total
           FROM stock_rows s JOIN items i ON i.id = s.item_id
          WHERE i.tenant_id = $1 AND i.sku = $2`,
        { bind: [tenant.id, sku], type: QueryTypes.SELECT },
      );
      return row!.total;
    },
  };
}
