import { createApiKeySchema, updateApiKeySchema } from '@wms/api-keys';
import {
  auditListQuerySchema,
  changePasswordSchema,
  createTenantSchema,
  createUserSchema,
  listUsersQuerySchema,
  loginSchema,
  refreshSchema,
  registerSchema,
  updateUserSchema,
} from '@wms/identity';
import { Joi, listQuerySchema } from '@wms/platform';
import type { Services } from '@wms/gateway';
import {
  ASN_STATUSES,
  ORDER_STATUSES,
  adjustmentSchema,
  confirmPickSchema,
  createWarehouseSchema,
  cycleCountSchema,
  grnSchema,
  shipSchema,
  SIMULATION_SCHEMAS,
  stockQuerySchema,
  itemListQuerySchema,
  partnerListQuerySchema,
  locationListQuerySchema,
  stockLevelsQuerySchema,
} from '@wms/warehouse';
import { bulkBodySchema, singleBodySchema } from '@wms/ingest';
import { createSubscriptionSchema, listDeliveriesSchema, updateSubscriptionSchema } from '@wms/webhooks';

/** Real ids the fuzzed paths point at, so a request reaches its handler's validation, not a 404. */
export interface FuzzIds {
  orderNo: string;
  asnNo: string;
  pickTaskId: string;
  userId: string;
  apiKeyId: string;
  webhookId: string;
}

export interface FuzzEndpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path under the gateway, ids filled in. */
  path: (ids: FuzzIds) => string;
  auth: 'api-key' | 'jwt' | 'none';
  /** The joi schema of the body; POSTs without one are fuzzed with hostile bodies of every kind. */
  body?: Joi.Schema;
  query?: Joi.Schema;
}

const INTEGRATION = '/api/v1/integration/v1';
const API = '/api/v1';
const noBody = Joi.object({});
const withTenant = (schema: Joi.ObjectSchema) => schema.keys({ tenantId: Joi.string().guid() });

/**
 * Every endpoint of the gateway with the joi schemas that validate it, as the libraries export them:
 * the integration API from the ingest registry (single and bulk, bulk entries fuzzed with the entry
 * schema) and the documents, then login, administration and the warehouse operations.
 */
export function fuzzEndpoints(services: Pick<Services, 'ingest'>): FuzzEndpoint[] {
  const integration: FuzzEndpoint[] = services.ingest.list().flatMap((handler): FuzzEndpoint[] => [
    {
      method: 'POST',
      path: () => `${INTEGRATION}/${handler.entity}`,
      auth: 'api-key',
      body: singleBodySchema(handler),
    },
    {
      method: 'POST',
      path: () => `${INTEGRATION}/${handler.entity}/bulk?dryRun=true`,
      auth: 'api-key',
      body: bulkBodySchema(handler, handler.entrySchema),
    },
  ]);
  return [
    ...integration,
    { method: 'POST', path: () => `${INTEGRATION}/grn`, auth: 'api-key', body: withTenant(grnSchema) },
    { method: 'POST', path: (ids) => `${INTEGRATION}/orders/${ids.orderNo}/cancel`, auth: 'api-key', body: noBody },
    { method: 'GET', path: (ids) => `${INTEGRATION}/orders/${ids.orderNo}`, auth: 'api-key' },
    { method: 'GET', path: (ids) => `${INTEGRATION}/asn/${ids.asnNo}`, auth: 'api-key' },
    { method: 'GET', path: () => `${INTEGRATION}/stock`, auth: 'api-key', query: stockQuerySchema },
    { method: 'GET', path: () => `${INTEGRATION}/orders`, auth: 'api-key', query: listQuerySchema(ORDER_STATUSES) },
    { method: 'GET', path: () => `${INTEGRATION}/asn`, auth: 'api-key', query: listQuerySchema(ASN_STATUSES) },
    { method: 'GET', path: () => `${INTEGRATION}/items`, auth: 'api-key', query: itemListQuerySchema },
    { method: 'GET', path: () => `${INTEGRATION}/partners`, auth: 'api-key', query: partnerListQuerySchema },
    { method: 'GET', path: () => `${INTEGRATION}/locations`, auth: 'api-key', query: locationListQuerySchema },
    { method: 'GET', path: () => `${INTEGRATION}/stock/levels`, auth: 'api-key', query: stockLevelsQuerySchema },
    { method: 'GET', path: () => `${INTEGRATION}/events`, auth: 'api-key' },
    { method: 'GET', path: () => `${INTEGRATION}/jobs/ingest-unknown`, auth: 'api-key' },
    // The fuzzing key's tenant is no sandbox: every simulation is refused (403), whatever its body.
    {
      method: 'POST',
      path: () => `${INTEGRATION}/simulations`,
      auth: 'api-key',
      body: withTenant(SIMULATION_SCHEMAS['order.shipped']),
    },

    { method: 'POST', path: () => `${API}/auth/login`, auth: 'none', body: loginSchema },
    { method: 'POST', path: () => `${API}/auth/refresh`, auth: 'none', body: refreshSchema },
    { method: 'POST', path: () => `${API}/auth/logout`, auth: 'none', body: refreshSchema },
    { method: 'POST', path: () => `${API}/auth/register`, auth: 'none', body: registerSchema },
    { method: 'POST', path: () => `${API}/auth/change-password`, auth: 'jwt', body: changePasswordSchema },
    { method: 'POST', path: () => `${API}/tenants`, auth: 'jwt', body: createTenantSchema },
    { method: 'POST', path: () => `${API}/warehouses`, auth: 'jwt', body: createWarehouseSchema },
    { method: 'GET', path: () => `${API}/warehouses`, auth: 'jwt' },
    { method: 'POST', path: () => `${API}/users`, auth: 'jwt', body: createUserSchema },
    { method: 'GET', path: () => `${API}/users`, auth: 'jwt', query: listUsersQuerySchema },
    { method: 'POST', path: (ids) => `${API}/users/${ids.userId}/disable`, auth: 'jwt' },
    { method: 'POST', path: (ids) => `${API}/users/${ids.userId}/unlock`, auth: 'jwt' },
    { method: 'PATCH', path: (ids) => `${API}/users/${ids.userId}`, auth: 'jwt', body: updateUserSchema },
    { method: 'POST', path: () => `${API}/api-keys`, auth: 'jwt', body: createApiKeySchema },
    { method: 'PATCH', path: (ids) => `${API}/api-keys/${ids.apiKeyId}`, auth: 'jwt', body: updateApiKeySchema },
    { method: 'GET', path: (ids) => `${API}/api-keys/${ids.apiKeyId}/stats`, auth: 'jwt' },
    { method: 'POST', path: (ids) => `${API}/api-keys/${ids.apiKeyId}/revoke`, auth: 'jwt' },
    { method: 'GET', path: () => `${API}/audit-logs`, auth: 'jwt', query: auditListQuerySchema },
    { method: 'POST', path: () => `${API}/webhooks`, auth: 'jwt', body: createSubscriptionSchema },
    { method: 'PATCH', path: (ids) => `${API}/webhooks/${ids.webhookId}`, auth: 'jwt', body: updateSubscriptionSchema },
    {
      method: 'GET',
      path: (ids) => `${API}/webhooks/${ids.webhookId}/deliveries`,
      auth: 'jwt',
      query: listDeliveriesSchema,
    },

    { method: 'GET', path: (ids) => `${API}/orders/${ids.orderNo}`, auth: 'jwt' },
    { method: 'POST', path: (ids) => `${API}/orders/${ids.orderNo}/allocate`, auth: 'jwt', body: noBody },
    { method: 'POST', path: (ids) => `${API}/orders/${ids.orderNo}/release`, auth: 'jwt', body: noBody },
    {
      method: 'POST',
      path: (ids) => `${API}/pick-tasks/${ids.pickTaskId}/confirm`,
      auth: 'jwt',
      body: confirmPickSchema,
    },
    { method: 'POST', path: (ids) => `${API}/orders/${ids.orderNo}/ship`, auth: 'jwt', body: shipSchema },
    { method: 'POST', path: () => `${API}/stock/adjustments`, auth: 'jwt', body: adjustmentSchema },
    { method: 'POST', path: () => `${API}/cycle-counts`, auth: 'jwt', body: cycleCountSchema },
  ];
}

export const endpointName = (endpoint: FuzzEndpoint): string =>
  `${endpoint.method} ${endpoint.path({ orderNo: ':orderNo', asnNo: ':asnNo', pickTaskId: ':id', userId: ':id', apiKeyId: ':id', webhookId: ':id' })}`;
