import fc from 'fast-check';
import type { DocumentedRoute } from '@wms/platform';
import {
  TEST_ADMIN,
  createApiKey,
  createMasterData,
  createSubscription,
  createTestContext,
  defaultTenantId,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { ADMIN_BASE_PATH, ADMIN_ROUTES } from '../admin-openapi/admin-openapi.js';
import { integrationRoutes } from '../integration/route-table.js';

/**
 * Times and cursors a request names reach PostgreSQL only when it can take them: every time parameter and
 * every cursor of every route in the two route tables (lists added later included) answers hostile values
 * with 400 VALIDATION_FAILED naming the parameter, never a 5xx.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** A year of the form ISO 8601 writes it: four digits, or six with a sign past them. */
const isoYear = (year: number): string =>
  year < 0
    ? `-${String(-year).padStart(6, '0')}`
    : year > 9999
      ? `+${String(year).padStart(6, '0')}`
      : String(year).padStart(4, '0');

const hostileTime = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '-000001-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '+275760-09-13T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '+010000-01-01T00:00:00Z',
  ),
  fc
    .integer({ min: -271_820, max: 275_759 })
    .filter((year) => year < 1970 || year > 9999)
    .map((year) => `${isoYear(year)}-06-15T12:00:00Z`),
);

const UUID = '0b6f1d0e-2c1a-4a7e-9d51-3f7a9c2e5b10';
const cursorOf = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
/** Cursors no list issued: a time PostgreSQL refuses (or "12") beside any id, or a good time beside a forged id. */
const hostileCursor = fc.oneof(
  fc
    .tuple(
      fc.oneof(hostileTime, fc.constantFrom('12', 'now', '2026-02-30T00:00:00.000000Z', '2026-01-01T24:00:00Z')),
      fc.constantFrom(UUID, '-'.repeat(36), '1'),
    )
    .map(cursorOf),
  fc
    .constantFrom('-'.repeat(36), '9223372036854775808', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz')
    .map((id) => cursorOf(['2026-01-01T00:00:00.000000Z', id])),
);

interface Probe {
  label: string;
  method: string;
  path: string;
  where: 'query' | 'body';
  key: string;
  kind: 'time' | 'cursor';
  headers: Record<string, string>;
  base: Record<string, unknown>;
}

type Described = { type?: string; rules?: Array<{ name: string }> };
const isTime = (description: Described) =>
  description.type === 'date' || (description.rules ?? []).some((rule) => rule.name === 'isoDate');

describe('hostile times and cursors answer 400 naming the parameter', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;
  let probes: Probe[];

  beforeAll(async () => {
    ctx = await createTestContext('hostile-times', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    tenantId = await defaultTenantId(ctx);
    await createMasterData(ctx, tenantId, { items: [{ sku: 'TIME-1' }] });
    const apiKey = (await createApiKey(ctx, { tenantId, scopes: ['read', 'write'] })).rawKey;
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/hook', tenantId });
    const ids: Record<string, string> = { '/webhooks/:id': `/webhooks/${subscription.id}` };
    const tables: Array<[string, readonly DocumentedRoute[], Record<string, string>]> = [
      ['/api/v1/integration/v1', integrationRoutes(ctx.services.ingest.list()), { 'x-api-key': apiKey }],
      [ADMIN_BASE_PATH, ADMIN_ROUTES, { authorization: `Bearer ${token}` }],
    ];
    probes = tables.flatMap(([prefix, routes, headers]) =>
      routes.flatMap((route) => {
        const path = route.path.replace(/^(\/[\w-]+\/:\w+)/, (head) => ids[head] ?? head);
        if (path.includes(':')) return [];
        return (['query', 'body'] as const).flatMap((where) => {
          const keys = (route[where]?.describe() as { keys?: Record<string, Described> } | undefined)?.keys ?? {};
          const base: Record<string, unknown> = {
            ...('tenantId' in keys ? { tenantId } : {}),
            ...('sku' in keys ? { sku: 'TIME-1' } : {}),
          };
          return Object.entries(keys)
            .filter(([key, description]) => key === 'cursor' || isTime(description))
            .map(([key, description]): Probe => ({
              label: `${route.method.toUpperCase()} ${prefix}${route.path} ${where} ${key}`,
              method: route.method.toUpperCase(),
              path: `${prefix}${path}`,
              where,
              key,
              kind: isTime(description) ? 'time' : 'cursor',
              headers,
              base,
            }));
        });
      }),
    );
  });
  afterAll(() => ctx.close());

  function send(probe: Probe, value: string) {
    const fields = { ...probe.base, [probe.key]: value };
    if (probe.where === 'body')
      return request(gateway.url, probe.method, probe.path, { body: fields, headers: probe.headers });
    const search = new URLSearchParams(fields as Record<string, string>).toString();
    return request(gateway.url, probe.method, `${probe.path}?${search}`, { headers: probe.headers });
  }

  it('finds the time parameters and cursors of the integration and admin lists, movements and the stock inquiry', () => {
    const labels = probes.map((probe) => probe.label);
    for (const expected of [
      'GET /api/v1/integration/v1/orders query updatedSince',
      'GET /api/v1/integration/v1/asn query cursor',
      'GET /api/v1/integration/v1/stock query asOf',
      'GET /api/v1/integration/v1/stock/movements query since',
      'GET /api/v1/integration/v1/stock/movements query until',
      'GET /api/v1/integration/v1/stock/movements query cursor',
      'POST /api/v1/integration/v1/stock/snapshots body asOf',
      'GET /api/v1/users query cursor',
      'GET /api/v1/audit-logs query from',
      'GET /api/v1/webhooks/:id/deliveries query cursor',
      'POST /api/v1/webhooks/:id/recover body since',
    ])
      expect(labels).toContain(expected);
  });

  it('when a time is outside 1970..9999 or a cursor is forged, every route answers 400 naming it', async () => {
    for (const probe of probes) {
      await fc.assert(
        fc.asyncProperty(probe.kind === 'time' ? hostileTime : hostileCursor, async (value) => {
          const response = await send(probe, value);
          const body = response.body as { code?: string; details?: Array<{ path: string }> };
          const named = body.details?.some((detail) => detail.path === probe.key);
          if (response.status !== 400 || body.code !== 'VALIDATION_FAILED' || !named)
            throw new Error(`${probe.label}=${value} answered ${response.status} ${JSON.stringify(body)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  }, 180_000);

  it('when a list names the first or the last time of the range, it answers', async () => {
    const lists = probes.filter((probe) => probe.kind === 'time' && probe.method === 'GET');
    expect(lists.length).toBeGreaterThan(0);
    for (const probe of lists)
      for (const value of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
        const response = await send(probe, value);
        expect({ probe: probe.label, value, status: response.status }).toEqual({
          probe: probe.label,
          value,
          status: 200,
        });
      }
  });
});
