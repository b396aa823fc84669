import fc from 'fast-check';
import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createSubscription,
  createUser,
  defaultTenantId,
  loginAs,
  request,
  type HttpResponse,
  type TestContext,
  type TestGateway,
  createTestContext,
} from '@wms/testing';
import { endpointName, fuzzEndpoints, hostile, hostileValue, type FuzzEndpoint, type FuzzIds } from '@wms/testing/fuzz';

/**
 * Property-based fuzzing of every endpoint from the joi schemas that validate it: plausible requests with
 * one part broken (wrong types, missing and extra fields, prototype keys, huge, empty, NUL and invalid
 * UTF-16 strings, deep nesting, big numbers, arrays for objects), hostile queries and raw bodies. Whatever
 * comes in: never a 5xx, never a stack trace or SQL in the answer, and a refused request stores nothing.
 * `npm test` runs a bounded number per endpoint; `npm run fuzz` runs many more (FUZZ_RUNS, FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const FUZZ_TIMEOUT_MS = Math.max(120_000, RUNS * 20_000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/**
 * Tables a refused request may still write: the API-key request log (every answer is logged: its daily
 * partitions, its hourly rollups and the route templates it names) and Idempotency-Key records.
 */
// Tables a refused request writes by design: the request log's rollups, stored idempotent answers, and the
// failed sign-ins counted against an address without an account (as an account's own count is).
const LOG_TABLES = ['api_key_request_rollups', 'api_request_endpoints', 'idempotency_records', 'login_address_locks'];
const LEAKS = [
  /\n\s+at\s/, // a stack frame
  /node_modules|\.ts:\d+|\.js:\d+/,
  /sequelize/i,
  /syntax error at|violates \w+ constraint|relation "|column "|invalid input syntax|unsupported Unicode escape/i,
  /\b(SELECT\s.+\sFROM|INSERT INTO|UPDATE\s+\w+\s+SET|DELETE FROM)\b/i,
];

describe('every endpoint under generated hostile requests', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let apiKey: string;
  let token: string;
  let ids: FuzzIds;
  let tables: string[];

  beforeAll(async () => {
    ctx = await createTestContext('fuzz', {
      AUTH_ALLOW_REGISTRATION: 'true',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOGIN_FAILURES_PER_IP_PER_MINUTE: '1000000',
      API_KEY_FAILURES_PER_IP_PER_MINUTE: '1000000',
      // No ingest worker runs: a bulk call that passes answers 202 at once and stores nothing meanwhile.
      BULK_SYNC_TIMEOUT_MS: '0',
    });
    gateway = await ctx.startGateway();
    const tenantId = await defaultTenantId(ctx);
    ids = await arrange(ctx, tenantId);
    apiKey = (await createApiKey(ctx, { tenantId, scopes: ['read', 'write'] })).rawKey;
    const fuzzer = await createUser(ctx, {
      role: 'admin',
      tenantId,
      adminModules: ['users', 'api-keys', 'audit', 'webhooks', 'warehouses', 'orders', 'inventory'],
      adminModulesWrite: ['users', 'api-keys', 'audit', 'webhooks', 'warehouses', 'orders', 'inventory'],
    });
    token = await loginAs(gateway.url, fuzzer.user.email, fuzzer.password);
    tables = (
      await ctx.runtime.db.sequelize.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN (:skip)
           AND table_name NOT LIKE 'api\\_key\\_request\\_logs%'
           AND table_name NOT ILIKE '%meta%' AND table_name NOT ILIKE '%migration%'`,
        { replacements: { skip: LOG_TABLES }, type: QueryTypes.SELECT },
      )
    ).map((row) => row.name);
  });
  afterAll(() => ctx.close());

  /** Row counts of every table that holds business data, in one statement. */
  async function rowCounts(): Promise<Record<string, number>> {
    const rows = await ctx.runtime.db.sequelize.query<{ name: string; n: number }>(
      tables.map((name) => `SELECT '${name}' AS name, count(*)::int AS n FROM "${name}"`).join(' UNION ALL '),
      { type: QueryTypes.SELECT },
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.n]));
  }

  const headersFor = (endpoint: FuzzEndpoint): Record<string, string> =>
    endpoint.auth === 'api-key'
      ? { 'x-api-key': apiKey }
      : endpoint.auth === 'jwt'
        ? { authorization: `Bearer ${token}` }
        : {};

  /** Sends one request and holds the invariants; returns the answer for the caller's own checks. */
  async function check(
    endpoint: FuzzEndpoint,
    send: (headers: Record<string, string>) => Promise<HttpResponse>,
  ): Promise<void> {
    const before = await rowCounts();
    const response = await send(headersFor(endpoint));
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
    const where = `${endpoint.method} ${endpoint.path(ids)} answered ${response.status}: ${text.slice(0, 300)}`;
    if (response.status >= 500) throw new Error(`5xx: ${where}`);
    const leak = LEAKS.find((pattern) => pattern.test(text));
    if (leak) throw new Error(`leak ${leak}: ${where}`);
    if (response.status >= 400) {
      const after = await rowCounts();
      const changed = tables.filter((name) => after[name] !== before[name]);
      if (changed.length) throw new Error(`refused but stored rows in ${changed.join(', ')}: ${where}`);
    }
  }

  const endpointsWithBodies = () => fuzzEndpoints(ctx.services).filter((endpoint) => endpoint.method !== 'GET');
  const readEndpoints = () => fuzzEndpoints(ctx.services).filter((endpoint) => endpoint.method === 'GET');

  it('covers every endpoint family of the gateway', () => {
    const names = fuzzEndpoints(ctx.services).map(endpointName);
    for (const path of [
      '/items',
      '/partners',
      '/locations',
      '/asn',
      '/orders',
      '/grn',
      '/auth/login',
      '/users',
      '/api-keys',
      '/webhooks',
      '/stock/adjustments',
      '/cycle-counts',
      '/ship',
      '/allocate',
      '/release',
      '/confirm',
    ])
      expect(names.some((name) => name.includes(path))).toBe(true);
  });

  it(
    'generated bodies never make a 5xx, leak, or store when refused',
    async () => {
      for (const endpoint of endpointsWithBodies()) {
        const bodies = endpoint.body ? hostile(endpoint.body) : hostileValue;
        await fc.assert(
          fc.asyncProperty(bodies, async (body) => {
            await check(endpoint, (headers) =>
              request(gateway.url, endpoint.method, endpoint.path(ids), { rawBody: JSON.stringify(body), headers }),
            );
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      }
    },
    FUZZ_TIMEOUT_MS,
  );

  const rawBodies = fc.oneof(
    fc.constantFrom(
      { type: 'application/json', body: '' },
      { type: 'application/json', body: '{"a":' },
      { type: 'application/json', body: '[]' },
      { type: 'application/json', body: 'null' },
      { type: 'application/json', body: '"\\ud800"' },
      { type: 'application/json', body: `${'['.repeat(10_000)}${']'.repeat(10_000)}` },
      { type: 'application/json', body: `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}` },
      { type: 'application/json; charset=utf-16', body: '{}' },
      { type: 'text/plain', body: '{}' },
      { type: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
      { type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\n--x--' },
    ),
    fc.string({ unit: 'binary', maxLength: 200 }).map((body) => ({ type: 'application/json', body })),
  );

  it(
    'raw bodies that are not JSON objects answer 4xx',
    async () => {
      for (const endpoint of endpointsWithBodies()) {
        await fc.assert(
          fc.asyncProperty(rawBodies, async ({ type, body }) => {
            await check(endpoint, (headers) =>
              request(gateway.url, endpoint.method, endpoint.path(ids), {
                rawBody: body,
                headers: { ...headers, 'content-type': type },
              }),
            );
          }),
          { numRuns: Math.max(4, Math.ceil(RUNS / 2)), seed: SEED, endOnFailure: true },
        );
      }
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'hostile query strings never make a 5xx',
    async () => {
      for (const endpoint of readEndpoints()) {
        const names = Object.keys((endpoint.query?.describe() as { keys?: object } | undefined)?.keys ?? {});
        const query = fc.dictionary(
          fc.constantFrom(...names, 'limit', 'cursor', 'tenantId', 'after', 'extra'),
          hostileValue,
          {
            maxKeys: 4,
          },
        );
        await fc.assert(
          fc.asyncProperty(query, async (params) => {
            const search = Object.entries(params)
              .map(
                ([key, value]) => `${key}=${encodeLoosely(typeof value === 'string' ? value : JSON.stringify(value))}`,
              )
              .join('&');
            await check(endpoint, (headers) =>
              request(gateway.url, 'GET', `${endpoint.path(ids)}?${search}`, { headers }),
            );
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      }
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'hostile path segments never make a 5xx',
    async () => {
      const segment = fc.oneof(
        hostileValue.map((value) => encodeLoosely(segmentText(value))),
        fc.constantFrom('%E0%A4%A', '%ff', '%', '%%', '..%2f..%2f', '%C0%AE', '%ED%A0%80'),
      );
      const templates = [...readEndpoints(), ...endpointsWithBodies()].filter((endpoint) =>
        /:(orderNo|asnNo|id)/.test(endpointName(endpoint)),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...templates), segment, async (endpoint, value) => {
          const path = endpoint.path({
            orderNo: value,
            asnNo: value,
            pickTaskId: value,
            userId: value,
            apiKeyId: value,
            webhookId: value,
          });
          await check(endpoint, (headers) =>
            request(gateway.url, endpoint.method, path, {
              rawBody: endpoint.method === 'GET' ? undefined : '{}',
              headers,
            }),
          );
        }),
        { numRuns: RUNS * 4, seed: SEED, endOnFailure: true },
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

/**
 * A hostile value as path text: an object or array as its JSON (fast-check makes some objects without a
 * prototype, which `String` cannot convert), anything else as `String` writes it.
 */
function segmentText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** Percent-encodes text; a lone surrogate, which encodeURIComponent refuses, goes out as the bytes of invalid UTF-8. */
function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[\ud800-\udfff]/g, '%ED%A0%80').replace(/[^%\w.-]/g, (char) => encodeURIComponent(char));
  }
}

/** Documents and records the fuzzed paths point at, so requests reach validation rather than a 404. */
async function arrange(ctx: TestContext, tenantId: string): Promise<FuzzIds> {
  await createMasterData(ctx, tenantId, {
    items: [{ sku: 'FUZZ-1' }],
    partners: [
      { code: 'SUP', type: 'supplier' },
      { code: 'CUST', type: 'customer' },
    ],
    locations: [{ warehouseCode: 'MAIN', code: 'A-01' }],
  });
  const documents = await ctx.runtime.db.sequelize.transaction(async (transaction) => {
    const context = { tenantId, transaction };
    await ctx.services.adjustments.adjust(context, {
      warehouseCode: 'MAIN',
      locationCode: 'A-01',
      sku: 'FUZZ-1',
      qtyDelta: 1000,
      reason: 'fuzz stock',
    });
    const [order] = await ctx.services.orders.createOrders(context, [
      {
        warehouseCode: 'MAIN',
        customerCode: 'CUST',
        priority: 0,
        referenceNo: 'FUZZ-ORDER',
        lines: [{ lineNo: 1, sku: 'FUZZ-1', uomCode: 'EA', qtyOrdered: 2 }],
      },
    ]);
    const [asn] = await ctx.services.asns.createAsns(context, [
      {
        warehouseCode: 'MAIN',
        supplierCode: 'SUP',
        referenceNo: 'FUZZ-ASN',
        lines: [{ lineNo: 1, sku: 'FUZZ-1', uomCode: 'EA', expectedQty: 5 }],
      },
    ]);
    if (!order?.ok || !asn?.ok) throw new Error('fuzz documents not created');
    const orderNo = order.data.orderNo as string;
    await ctx.services.allocation.allocate(context, orderNo);
    await ctx.services.picking.release(context, orderNo);
    const [task] = await ctx.runtime.db.sequelize.query<{ id: string }>('SELECT id FROM pick_tasks LIMIT 1', {
      type: QueryTypes.SELECT,
      transaction,
    });
    return { orderNo, asnNo: asn.data.asnNo as string, pickTaskId: task!.id };
  });
  const victim = await createUser(ctx, { tenantId });
  const key = await createApiKey(ctx, { tenantId });
  const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/hook', tenantId });
  return { ...documents, userId: victim.user.id, apiKeyId: key.id, webhookId: subscription.id };
}
