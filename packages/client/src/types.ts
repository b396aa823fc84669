import type { components, paths, webhooks } from './schema.js';

/** The JSON body a route takes. */
export type RequestBody<Path extends keyof paths, Method extends 'post'> = paths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The JSON answer of a route for one status. */
export type Answer<
  Path extends keyof paths,
  Method extends 'get' | 'post' | 'delete',
  Status extends number,
> = paths[Path][Method] extends { responses: { [S in Status]: { content: { 'application/json': infer Body } } } }
  ? Body
  : never;

export type Item = components['schemas']['Item'];
export type Partner = components['schemas']['Partner'];
export type Location = components['schemas']['Location'];
export type Asn = components['schemas']['Asn'];
export type Order = components['schemas']['Order'];
export type Grn = components['schemas']['Grn'];
export type BulkEnvelope = components['schemas']['BulkEnvelope'];
export type Accepted = components['schemas']['Accepted'];
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** A job as GET /jobs/{jobId} shows it: a bulk job, a file import (`import-…`) or a stock snapshot (`snapshot-…`). */
export type JobStatus = components['schemas']['JobStatus']['data'];
/** A bulk job as GET /jobs/{jobId} shows it. */
export type BulkJobStatus = Extract<JobStatus, { result: unknown }>;
/** A file import as GET /jobs/{jobId} and its cancel show it. */
export type ImportStatus = Answer<'/jobs/{jobId}', 'delete', 200>['data'];

/** The lists the client can walk page by page, and the query field each reads its cursor from. */
export const LIST_CURSORS = {
  '/items': 'cursor',
  '/partners': 'cursor',
  '/locations': 'cursor',
  '/orders': 'cursor',
  '/asn': 'cursor',
  '/returns': 'cursor',
  '/stock/movements': 'cursor',
  '/events': 'after',
} as const;
export type ListPath = keyof typeof LIST_CURSORS;
export type ListQuery<Path extends ListPath> = Omit<
  NonNullable<paths[Path]['get']['parameters']['query']>,
  (typeof LIST_CURSORS)[Path]
>;
export type ListItem<Path extends ListPath> =
  Answer<Path, 'get', 200> extends { data: (infer Entry)[] } ? Entry : never;
/** One page of a list: its items and the cursor of the next page (null on the last). */
export interface Page<Entry> {
  data: Entry[];
  nextCursor: string | null;
}

/** The body of one webhook the service sends. */
export type WebhookBody<Name extends keyof webhooks> =
  webhooks[Name]['post']['requestBody']['content']['application/json'];

/** Every webhook the service sends, told apart by `event`: narrowing on it types `data`. */
export type WebhookEvent = { [Name in keyof webhooks]: WebhookBody<Name> }[keyof webhooks];
export type WebhookEventType = WebhookEvent['event'];

export type { components, paths, webhooks };
