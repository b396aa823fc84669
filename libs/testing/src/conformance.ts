import { loginAs } from './factories.js';
import { TEST_ADMIN } from './test-context.js';
import { request, type HttpResponse, type JsonNode } from './http.js';

/**
 * The service as an integrator meets it: only what the interface describes (login, `POST /api/v1/api-keys`
 * with name, scopes and tenantId, the integration endpoints, subscriptions with url and events) and the staff
 * operations that make events happen (CONTRACT.md section 5). Nothing here reaches the database, a service
 * object or a setting: a conformance spec that needs more has found a gap in the interface.
 */
export const INTEGRATION = '/api/v1/integration/v1';
const API = '/api/v1';

/** A v4 UUID, as the interface types `requestId`. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A matcher of one value that `toEqual` and `objectContaining` accept (jest's asymmetric matcher protocol). */
function satisfying(description: string, test: (value: unknown) => boolean) {
  return {
    $$typeof: Symbol.for('jest.asymmetricMatcher'),
    asymmetricMatch: test,
    toString: () => description,
    toAsymmetricMatcher: () => description,
  };
}

/**
 * Field types as the interface's tables name them. `object` tolerates fields the interface does not list (an
 * addition is not a break); every element of an array is checked by the spec itself.
 */
export const a = {
  string: () => expect.any(String),
  number: () => satisfying('a JSON number', (value) => typeof value === 'number' && Number.isFinite(value)),
  boolean: () => expect.any(Boolean),
  integer: () => satisfying('an integer', (value) => Number.isInteger(value)),
  uuidV4: () => expect.stringMatching(UUID_V4),
  isoUtc: () => expect.stringMatching(ISO_UTC),
  date: () => expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  stringOrNull: () => satisfying('a string or null', (value) => value === null || typeof value === 'string'),
  nonEmptyArray: () => satisfying('a non-empty array', (value) => Array.isArray(value) && value.length > 0),
  array: () => satisfying('an array', (value) => Array.isArray(value)),
  object: (fields: Record<string, unknown>) => expect.objectContaining(fields),
};

export interface Integrator {
  gatewayUrl: string;
  adminToken: string;
  /** Integration call with the integrator's key. */
  call<T = JsonNode>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
  /** The same call, its answer as the text sent (to read numbers digit by digit). */
  text(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string }>;
  /** A staff operation (JWT) of CONTRACT.md section 5, in the integrator's tenant. */
  staff<T = JsonNode>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>>;
  tenantId: string;
  warehouseCode: string;
  key: { id: string; rawKey: string; [field: string]: unknown };
}

/**
 * Logs in as the seeded admin, creates a tenant with a warehouse and a key exactly as section 4.3 says (`name`,
 * `scopes`, `tenantId`, nothing pinned), and answers a caller of the integration API with that key.
 */
export async function integratorOf(gatewayUrl: string, code: string, scopes = ['read', 'write']): Promise<Integrator> {
  const adminToken = await loginAs(gatewayUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const admin = (method: string, path: string, body?: unknown) =>
    request(gatewayUrl, method, `${API}${path}`, { token: adminToken, body });
  const tenant = created(await admin('POST', '/tenants', { code, name: `Tenant ${code}` }), 'the tenant');
  const tenantId = String(tenant.body.id);
  const warehouseCode = 'WH1';
  created(await admin('POST', '/warehouses', { tenantId, code: warehouseCode, name: 'Main' }), 'the warehouse');
  const key = created(await admin('POST', '/api-keys', { name: `${code} ERP`, scopes, tenantId }), 'the key');
  const rawKey = String(key.body.rawKey);
  const headersOf = (headers: Record<string, string>) => ({ 'x-api-key': rawKey, ...headers });
  return {
    gatewayUrl,
    adminToken,
    tenantId,
    warehouseCode,
    key: { ...(key.body as unknown as Record<string, unknown>), id: String(key.body.id), rawKey },
    call: (method, path, body, headers = {}) =>
      request(gatewayUrl, method, `${INTEGRATION}${path}`, { body, headers: headersOf(headers) }),
    async text(method, path, body, headers = {}) {
      const response = await fetch(`${gatewayUrl}${INTEGRATION}${path}`, {
        method,
        headers: { ...headersOf(headers), ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
    staff: (method, path, body) =>
      request(gatewayUrl, method, `${API}${path}${path.includes('?') ? '&' : '?'}tenantId=${tenantId}`, {
        token: adminToken,
        body,
      }),
  };
}

/** Registers a webhook subscription as an integrator would: `url` and `events` only. Answers its secret. */
export async function subscribe(
  integrator: Integrator,
  url: string,
  events: string[],
): Promise<{ id: string; secret: string }> {
  const subscription = created(
    await request(integrator.gatewayUrl, 'POST', `${API}/webhooks`, {
      token: integrator.adminToken,
      body: { url, events },
    }),
    'the subscription',
  );
  return { id: String(subscription.body.id), secret: String(subscription.body.secret) };
}

/** The master data the documents of a spec refer to: one plain item, one lot item, a supplier, a customer, a location. */
export async function pushMasterData(integrator: Integrator): Promise<void> {
  const { call, warehouseCode } = integrator;
  for (const [path, body] of [
    ['/items', { sku: 'PLAIN', name: 'Plain item', baseUomCode: 'EA' }],
    ['/items', { sku: 'LOT', name: 'Lot item', baseUomCode: 'EA', tracking: 'lot', shelfLifeDays: 365 }],
    ['/partners', { code: 'SUP', name: 'Supplier', type: 'supplier', contact: { phone: '+1 555 0100' } }],
    ['/partners', { code: 'CUST', name: 'Customer', type: 'customer' }],
    ['/locations', { warehouseCode, code: 'A-01', zone: 'A', type: 'storage', pickFace: true }],
  ] as const) {
    const answer = await call('POST', path, body);
    if (answer.status !== 200)
      throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** The answer when it has the status arranging expects; otherwise an error naming what was answered. */
function created<T>(answer: HttpResponse<T>, what: string, status = 201): HttpResponse<T> {
  if (answer.status !== status)
    throw new Error(`creating ${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}
