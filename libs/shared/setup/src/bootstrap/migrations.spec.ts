import { migrations } from './migrations.js';

/** The names databases have recorded, in the order they were applied: a shipped migration never moves. */
const SHIPPED = [
  '0001-foundation',
  '0002-api-keys',
  '0003-master-data',
  '0004-events-webhooks',
  '0005-auth',
  '0006-documents',
  '0007-operations',
  '0015-admin-lists',
  '0012-observability',
  '0008-bulk-jobs',
  '0009-lifecycles',
  '0010-user-idempotency',
  '0020-delivery-recheck',
  '0021-bulk-job-finished',
  '0022-request-log-without-key-check',
  '0023-bulk-job-result-status',
  '0033-people-list-paging',
  '0030-refresh-token-families',
  '0035-partitioned-request-log',
  '0036-list-filter-indexes',
  '0040-imports',
  '0045-webhook-filters',
  '0046-webhook-rate-order',
  '0037-delivery-event-type',
  '0047-import-tenant-turns',
  '0050-sandbox-tenants',
  '0051-key-outcomes',
  '0054-bulk-job-turns',
];

describe('the migrations composed from the libraries', () => {
  it('keep every shipped migration under its recorded name, in the order it was applied', () => {
    const names = migrations.map((migration) => migration.name);

    expect(names.slice(0, SHIPPED.length)).toEqual(SHIPPED);
  });

  it('name each migration once', () => {
    const names = migrations.map((migration) => migration.name);

    expect(new Set(names).size).toBe(names.length);
  });
});
