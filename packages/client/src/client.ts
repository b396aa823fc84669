import createFetchClient, { type Client } from 'openapi-fetch';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrorFrom, apiErrorOf, JobWaitTimeoutError } from './errors.js';
import { DEFAULT_RETRIES, retryingFetch, sendWithRetries, type RetryOptions } from './retrying-fetch.js';
import type { paths } from './schema.js';
import { uploadBody, type UploadOptions, type UploadSource } from './uploads.js';
import {
  LIST_CURSORS,
  type Accepted,
  type Answer,
  type JobStatus,
  type ListItem,
  type ListPath,
  type ListQuery,
  type Page,
  type RequestBody,
} from './types.js';
import { unwrapWebhook } from './webhooks.js';

/** Where the integration API lives under the service's address. */
export const INTEGRATION_BASE = '/api/v1/integration/v1';

export interface ClientOptions {
  /** The service's address (https://wms.example.com), or its integration base (…/api/v1/integration/v1). */
  baseUrl: string;
  /** The API key, sent as X-Api-Key. */
  apiKey: string;
  /** A fetch to send with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Attempts after the first on 429, 503 and network errors (default 3), or the retry settings. */
  retries?: number | Partial<RetryOptions>;
}

/** Per call: the Idempotency-Key to send (default: a random UUID per POST, the same on every retry) and an abort signal. */
export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** A bulk call: validate without writing (dryRun), or answer 202 at once and run in the background (respondAsync). */
export interface BulkOptions extends CallOptions {
  dryRun?: boolean;
  respondAsync?: boolean;
}

export interface WaitOptions {
  /** Between two polls (default 1 s). */
  intervalMs?: number;
  /** Gives up with JobWaitTimeoutError after this long (default 10 min). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

type Pending<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** The data of a success, or the typed error of anything else. */
async function answer<T>(pending: Pending<T>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorOf(response, error);
  return data as T;
}

const writeInit = (options: CallOptions = {}) => ({
  headers: options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey },
  signal: options.signal,
});

const bulkInit = (options: BulkOptions = {}) => {
  const init = writeInit(options);
  return {
    ...init,
    headers: options.respondAsync ? { ...init.headers, prefer: 'respond-async' } : init.headers,
    params: { query: { dryRun: options.dryRun ?? false } },
  };
};

function retryOptionsOf(retries: ClientOptions['retries']): RetryOptions {
  if (typeof retries === 'number') return { ...DEFAULT_RETRIES, retries };
  return { ...DEFAULT_RETRIES, ...retries };
}

/** The integration API in one object: every route, typed from the service's OpenAPI document. */
export function createClient(clientOptions: ClientOptions) {
  const { apiKey } = clientOptions;
  const root = clientOptions.baseUrl.replace(/\/+$/, '');
  const baseUrl = root.endsWith(INTEGRATION_BASE) ? root : `${root}${INTEGRATION_BASE}`;
  const send = clientOptions.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retry = retryOptionsOf(clientOptions.retries);
  /** The openapi-fetch client itself, with the key, the retries and the Idempotency-Key: any route, answers not thrown. */
  const api: Client<paths> = createFetchClient<paths>({
    baseUrl,
    headers: { 'x-api-key': apiKey },
    fetch: retryingFetch(send, retry),
  });

  const jobs = {
    get: async (jobId: string, options: CallOptions = {}): Promise<JobStatus> =>
      (await answer(api.GET('/jobs/{jobId}', { params: { path: { jobId } }, signal: options.signal }))).data,
    /** Polls a bulk job or an import until it is completed, failed or cancelled, and answers its last status. */
    async wait(jobId: string, options: WaitOptions = {}): Promise<JobStatus> {
      const { intervalMs = 1_000, timeoutMs = 600_000, signal } = options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await jobs.get(jobId, { signal });
        if (ENDED.has(job.state ?? '')) return job;
        if (Date.now() + intervalMs > deadline) throw new JobWaitTimeoutError(jobId, job.state ?? undefined);
        await sleep(intervalMs, undefined, { signal });
      }
    },
    /** An import's failed rows in file order: NDJSON, or CSV to fix and upload again. */
    errors: async (jobId: string, options: CallOptions & { format?: 'ndjson' | 'csv' } = {}): Promise<string> =>
      answer(
        api.GET('/jobs/{jobId}/errors', {
          params: { path: { jobId } },
          headers: { accept: options.format === 'csv' ? 'text/csv' : 'application/x-ndjson' },
          parseAs: 'text',
          signal: options.signal,
        }),
      ),
    /** A completed stock snapshot's file: one NDJSON line per stock row. */
    file: async (jobId: string, options: CallOptions = {}): Promise<string> =>
      answer(api.GET('/jobs/{jobId}/file', { params: { path: { jobId } }, parseAs: 'text', signal: options.signal })),
    /** Cancels an import; rows written stay written. */
    cancel: async (jobId: string, options: CallOptions = {}) =>
      (await answer(api.DELETE('/jobs/{jobId}', { params: { path: { jobId } }, signal: options.signal }))).data,
  };

  return {
    api,
    items: {
      upsert: (item: RequestBody<'/items', 'post'>, options?: CallOptions) =>
        answer(api.POST('/items', { body: item, ...writeInit(options) })),
      bulk: (body: RequestBody<'/items/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/items/bulk', { body, ...bulkInit(options) })),
    },
    partners: {
      upsert: (partner: RequestBody<'/partners', 'post'>, options?: CallOptions) =>
        answer(api.POST('/partners', { body: partner, ...writeInit(options) })),
      bulk: (body: RequestBody<'/partners/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/partners/bulk', { body, ...bulkInit(options) })),
    },
    locations: {
      upsert: (location: RequestBody<'/locations', 'post'>, options?: CallOptions) =>
        answer(api.POST('/locations', { body: location, ...writeInit(options) })),
      bulk: (body: RequestBody<'/locations/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/locations/bulk', { body, ...bulkInit(options) })),
    },
    asn: {
      create: (asn: RequestBody<'/asn', 'post'>, options?: CallOptions) =>
        answer(api.POST('/asn', { body: asn, ...writeInit(options) })),
      bulk: (body: RequestBody<'/asn/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/asn/bulk', { body, ...bulkInit(options) })),
      get: (asnNo: string, query: { tenantId?: string } = {}) =>
        answer(api.GET('/asn/{asnNo}', { params: { path: { asnNo }, query } })),
      list: (query: ListQuery<'/asn'> & { cursor?: string } = {}) => answer(api.GET('/asn', { params: { query } })),
    },
    orders: {
      create: (order: RequestBody<'/orders', 'post'>, options?: CallOptions) =>
        answer(api.POST('/orders', { body: order, ...writeInit(options) })),
      bulk: (body: RequestBody<'/orders/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/orders/bulk', { body, ...bulkInit(options) })),
      get: (orderNo: string, query: { tenantId?: string } = {}) =>
        answer(api.GET('/orders/{orderNo}', { params: { path: { orderNo }, query } })),
      list: (query: ListQuery<'/orders'> & { cursor?: string } = {}) =>
        answer(api.GET('/orders', { params: { query } })),
      /** Cancels an order before it ships. */
      cancel: (orderNo: string, body: RequestBody<'/orders/{orderNo}/cancel', 'post'> = {}, options?: CallOptions) =>
        answer(api.POST('/orders/{orderNo}/cancel', { params: { path: { orderNo } }, body, ...writeInit(options) })),
    },
    returns: {
      /** Announces a customer return (RMA) of a shipped order; more than was shipped is 409 RETURN_EXCEEDS_SHIPPED. */
      create: (rma: RequestBody<'/returns', 'post'>, options?: CallOptions) =>
        answer(api.POST('/returns', { body: rma, ...writeInit(options) })),
      bulk: (body: RequestBody<'/returns/bulk', 'post'>, options?: BulkOptions) =>
        answer(api.POST('/returns/bulk', { body, ...bulkInit(options) })),
      get: (rmaNo: string, query: { tenantId?: string } = {}) =>
        answer(api.GET('/returns/{rmaNo}', { params: { path: { rmaNo }, query } })),
      list: (query: ListQuery<'/returns'> & { cursor?: string } = {}) =>
        answer(api.GET('/returns', { params: { query } })),
    },
    grn: {
      create: (grn: RequestBody<'/grn', 'post'>, options?: CallOptions) =>
        answer(api.POST('/grn', { body: grn, ...writeInit(options) })),
    },
    stock: {
      /** The stock of one item; with `asOf` (ISO time), as it was then. */
      get: (query: NonNullable<paths['/stock']['get']['parameters']['query']>) =>
        answer(api.GET('/stock', { params: { query } })),
      /** One page of stock movements, oldest first (walk them all with paginate('/stock/movements')). */
      movements: (query: ListQuery<'/stock/movements'> & { cursor?: string } = {}) =>
        answer(api.GET('/stock/movements', { params: { query } })),
      /** Queues an export of the stock as of a time; jobs.wait, then jobs.file, give its NDJSON file. */
      snapshot: (body: RequestBody<'/stock/snapshots', 'post'> = {}, options: CallOptions = {}): Promise<Accepted> =>
        answer(api.POST('/stock/snapshots', { body, signal: options.signal })) as Promise<Accepted>,
    },
    events: {
      /** One page of the reconciliation feed, oldest first; pass the answer's nextCursor as `after`. */
      list: (query: ListQuery<'/events'> & { after?: string } = {}) =>
        answer(api.GET('/events', { params: { query } })),
    },
    jobs,
    simulations: {
      /**
       * Runs a warehouse operation on the caller's sandbox tenant (receive an ASN or a return, ship an order,
       * adjust or count stock), so its real events and webhooks follow; a key of another tenant gets 403 NOT_A_SANDBOX.
       */
      run: (simulation: RequestBody<'/simulations', 'post'>, options?: CallOptions) =>
        answer(api.POST('/simulations', { body: simulation, ...writeInit(options) })),
    },
    imports: {
      /**
       * Streams a file into an import and answers its job (poll it with jobs.wait). A path or Blob is read
       * again for a retry; a stream is sent once.
       */
      async upload(source: UploadSource, options: UploadOptions): Promise<Accepted> {
        const body = uploadBody(source, options);
        const url = new URL(`${baseUrl}/imports`);
        url.searchParams.set('entity', options.entity);
        if (options.tenantId !== undefined) url.searchParams.set('tenantId', options.tenantId);
        const response = await sendWithRetries(
          (key) =>
            new Request(url, {
              method: 'POST',
              headers: { 'x-api-key': apiKey, ...body.headers, ...(key ? { 'idempotency-key': key } : {}) },
              body: body.open(),
              duplex: 'half',
              signal: options.signal,
            } as RequestInit),
          send,
          { ...retry, method: 'POST', idempotencyKey: options.idempotencyKey, replayable: body.replayable },
        );
        if (!response.ok) throw await apiErrorFrom(response);
        return (await response.json()) as Answer<'/imports', 'post', 202>;
      },
    },
    /**
     * Walks a cursor list (/orders, /asn, /returns, /stock/movements or the /events feed) item by item, page after page, to its end (the
     * feed: to the newest event).
     */
    async *paginate<Path extends ListPath>(path: Path, query?: ListQuery<Path>): AsyncGenerator<ListItem<Path>> {
      const cursorField = LIST_CURSORS[path];
      let cursor: string | undefined;
      for (;;) {
        const pageQuery = { ...query, ...(cursor === undefined ? {} : { [cursorField]: cursor }) };
        // One call for the lists: their answers differ only in the items' type, which ListItem gives.
        const page = (await answer(api.GET(path as '/orders', { params: { query: pageQuery } }))) as unknown as Page<
          ListItem<Path>
        >;
        yield* page.data;
        if (page.nextCursor === null || page.data.length === 0 || page.nextCursor === cursor) return;
        cursor = page.nextCursor;
      }
    },
    webhooks: {
      /** Verifies a delivery and answers its event, typed by `event`; throws WebhookVerificationError. */
      unwrap: unwrapWebhook,
    },
  };
}

export type WmsClient = ReturnType<typeof createClient>;
