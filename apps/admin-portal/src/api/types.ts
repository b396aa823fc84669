/**
 * Shapes of the `/api/v1` answers the portal reads, named after the admin API's OpenAPI document: aliases of
 * the types generated from it (./schema.ts, `npm run generate:api-types`), never declared by hand.
 * Dates arrive as ISO strings.
 */
import type { components, paths } from './schema';

type Schemas = components['schemas'];

export { roleValues } from './schema';

export type Role = Schemas['Role'];
export type AdminModule = Schemas['AdminModule'];

/** The claims of an access token: who is signed in and what they may do. */
export type Principal = Schemas['AccessTokenClaims'];

export type PublicUser = Schemas['User'];
export type UserRecord = Schemas['UserRecord'];
export type Tenant = Schemas['Tenant'];

export type ApiKey = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type ApiKeyInput = Schemas['CreateApiKey'];
export type ApiKeyPatch = Schemas['UpdateApiKey'];
export type ApiKeyStats = Schemas['ApiKeyStats'];
export type RequestLogEntry = ApiKeyStats['recentRequests'][number];
/** One bucket of a key's traffic: requests and error answers (status 400 and above) in it. */
export type TrafficPoint = ApiKeyStats['hourly'][number];

export type AuditEntry = Schemas['AuditEntry'];
export type AuditQuery = NonNullable<paths['/audit-logs']['get']['parameters']['query']>;

export type WebhookSubscription = Schemas['WebhookSubscription'];
export type Overview = Schemas['Overview'];

export type ImportJob = Schemas['Import'];
export type ImportAccepted = Schemas['ImportAccepted'];
export type ImportEntity = ImportJob['entity'];
export type ImportState = ImportJob['state'];

export type ReturnSummary = Schemas['ReturnSummary'];
export type ReturnDocument = Schemas['Return'];
export type ReturnStatus = ReturnDocument['status'];
export type ReturnReceiptInput = Schemas['ReturnReceipt'];
export type Disposition = ReturnReceiptInput['lines'][number]['disposition'];
