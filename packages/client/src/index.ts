/** @wms/client: the typed client of the WMS integration API. */
export {
  createClient,
  INTEGRATION_BASE,
  type BulkOptions,
  type CallOptions,
  type ClientOptions,
  type WaitOptions,
  type WmsClient,
} from './client.js';
export { JobWaitTimeoutError, WebhookVerificationError, WmsApiError, type WmsErrorDetail } from './errors.js';
export type { RetryOptions } from './retrying-fetch.js';
export type { UploadOptions, UploadSource } from './uploads.js';
export type { ReceivedHeaders } from './webhooks.js';
export type * from './types.js';
export { API_VERSION } from './version.js';
