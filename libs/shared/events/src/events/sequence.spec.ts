import { createTestContext, createTenantWithWarehouse, type TestContext } from '@wms/testing';
import type { AppendEventInput } from './event-types.js';

describe('event sequence per document', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('event-sequence');
  });
  afterAll(() => ctx.close());

  const cancelled = (tenantId: string, orderNo: string): AppendEventInput => ({
    tenantId,
    event: 'order.cancelled',
    data: { orderNo, referenceNo: null, previousStatus: 'open' },
  });
  const adjusted = (tenantId: string, lotNo: string | null): AppendEventInput => ({
    tenantId,
    event: 'stock.adjusted',
    data: { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'SKU-1', lotNo, qtyDelta: 1, qtyOnHand: 1, reason: 'x' },
  });

  it('when twenty transactions write events of one order at once, the order’s sequences are 1 to 20 in commit order', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);

    const appended = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.runtime.db.sequelize.transaction((transaction) =>
          ctx.services.events.append(transaction, cancelled(tenant.id, 'SO-RACE')),
        ),
      ),
    );
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT sequence::int AS sequence FROM events WHERE tenant_id = :tenantId ORDER BY seq`,
      { replacements: { tenantId: tenant.id } },
    )) as [Array<{ sequence: number }>, unknown];

    expect(appended.map((event) => event.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_v, index) => index + 1),
    );
    // Written in sequence order: a writer takes its event row only once the previous writer of the order committed.
    expect(rows.map((row) => row.sequence)).toEqual(Array.from({ length: 20 }, (_v, index) => index + 1));
  });

  it('when events of different documents are written, each document counts on its own; a stock position includes its lot', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: other } = await createTenantWithWarehouse(ctx);

    const sequences = await ctx.runtime.db.sequelize.transaction(async (transaction) => {
      const inputs = [
        cancelled(tenant.id, 'SO-A'),
        cancelled(tenant.id, 'SO-B'),
        cancelled(tenant.id, 'SO-A'),
        cancelled(other.id, 'SO-A'),
        adjusted(tenant.id, null),
        adjusted(tenant.id, 'LOT-1'),
        adjusted(tenant.id, null),
      ];
      const out: number[] = [];
      for (const input of inputs) out.push((await ctx.services.events.append(transaction, input)).sequence);
      return out;
    });

    expect(sequences).toEqual([1, 1, 2, 1, 1, 1, 2]);
  });
});
