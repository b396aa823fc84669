/**
 * @wms/client: the typed client of the WMS integration API. This entry uses only the Web platform (fetch,
 * Web Streams, Web Crypto, AbortSignal), so it runs in browsers, Deno, Bun and Node; `@wms/client/node`
 * adds uploads from a file's path or a Node stream.
 */
export { createClient, INTEGRATION_BASE, type ClientOptions, type WmsClient } from './client.js';
export type { BulkOptions, CallOptions } from './calls.js';
export type { WaitOptions } from './resources.js';
export { JobWaitTimeoutError, WebhookVerificationError, WmsApiError, type WmsErrorDetail } from './errors.js';
export { DEFAULT_TIMEOUT_MS, type RetryOptions } from './retrying-fetch.js';
export type { UploadOptions, UploadSource } from './uploads.js';
export type { ReceivedHeaders } from './webhooks.js';
export type * from './types.js';
export { API_VERSION } from './version.js';
