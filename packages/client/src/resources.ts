import type { paths } from './schema.js';
import { answer, bulkInit, writeInit, type BulkOptions, type CallOptions, type Transport } from './calls.js';
import { apiErrorFrom, JobWaitTimeoutError } from './errors.js';
import { delay } from './delay.js';
import { sendWithRetries } from './retrying-fetch.js';
import { UPLOAD_TIMEOUT_MS, type UploadBody, type UploadOptions } from './uploads.js';
import type { Accepted, Answer, JobStatus, ListQuery, RequestBody } from './types.js';

/*
 * One function per resource of the integration API, each named by the resource's plural noun (`stock`, a
 * mass noun, as it is): its methods call the typed routes and throw WmsApiError on anything but a success.
 * A new route is a method here (or a new function, listed in createClient).
 */

export interface WaitOptions {
  /** Between two polls (default 1 s). */
  intervalMs?: number;
  /** Gives up with JobWaitTimeoutError after this long (default 10 min). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

export function items({ api }: Transport) {
  return {
    upsert: (item: RequestBody<'/items', 'post'>, options?: CallOptions) =>
      answer(api.POST('/items', { body: item, ...writeInit(options) })),
    bulk: (body: RequestBody<'/items/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/items/bulk', { body, ...bulkInit(options) })),
    /** One item by sku (404 NOT_FOUND when the tenant has none). */
    get: (sku: string, query: { tenantId?: string } = {}) =>
      answer(api.GET('/items/{sku}', { params: { path: { sku }, query } })),
    /** One page of items changed since updatedSince, oldest change first; `sku` names up to 100 (paginate('/items')). */
    list: (query: ListQuery<'/items'> & { cursor?: string } = {}) => answer(api.GET('/items', { params: { query } })),
  };
}

export function partners({ api }: Transport) {
  return {
    upsert: (partner: RequestBody<'/partners', 'post'>, options?: CallOptions) =>
      answer(api.POST('/partners', { body: partner, ...writeInit(options) })),
    bulk: (body: RequestBody<'/partners/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/partners/bulk', { body, ...bulkInit(options) })),
    /** One page of partners, oldest change first; `code` names up to 100, `type` one type (paginate('/partners')). */
    list: (query: ListQuery<'/partners'> & { cursor?: string } = {}) =>
      answer(api.GET('/partners', { params: { query } })),
  };
}

export function locations({ api }: Transport) {
  return {
    upsert: (location: RequestBody<'/locations', 'post'>, options?: CallOptions) =>
      answer(api.POST('/locations', { body: location, ...writeInit(options) })),
    bulk: (body: RequestBody<'/locations/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/locations/bulk', { body, ...bulkInit(options) })),
    /** One page of locations, oldest change first, of one warehouse with `warehouseCode` (paginate('/locations')). */
    list: (query: ListQuery<'/locations'> & { cursor?: string } = {}) =>
      answer(api.GET('/locations', { params: { query } })),
  };
}

export function asns({ api }: Transport) {
  return {
    create: (asn: RequestBody<'/asn', 'post'>, options?: CallOptions) =>
      answer(api.POST('/asn', { body: asn, ...writeInit(options) })),
    bulk: (body: RequestBody<'/asn/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/asn/bulk', { body, ...bulkInit(options) })),
    get: (asnNo: string, query: { tenantId?: string } = {}) =>
      answer(api.GET('/asn/{asnNo}', { params: { path: { asnNo }, query } })),
    list: (query: ListQuery<'/asn'> & { cursor?: string } = {}) => answer(api.GET('/asn', { params: { query } })),
  };
}

export function grns({ api }: Transport) {
  return {
    create: (grn: RequestBody<'/grn', 'post'>, options?: CallOptions) =>
      answer(api.POST('/grn', { body: grn, ...writeInit(options) })),
  };
}

export function orders({ api }: Transport) {
  return {
    create: (order: RequestBody<'/orders', 'post'>, options?: CallOptions) =>
      answer(api.POST('/orders', { body: order, ...writeInit(options) })),
    bulk: (body: RequestBody<'/orders/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/orders/bulk', { body, ...bulkInit(options) })),
    get: (orderNo: string, query: { tenantId?: string } = {}) =>
      answer(api.GET('/orders/{orderNo}', { params: { path: { orderNo }, query } })),
    list: (query: ListQuery<'/orders'> & { cursor?: string } = {}) => answer(api.GET('/orders', { params: { query } })),
    /** Cancels an order before it ships. */
    cancel: (orderNo: string, body: RequestBody<'/orders/{orderNo}/cancel', 'post'> = {}, options?: CallOptions) =>
      answer(api.POST('/orders/{orderNo}/cancel', { params: { path: { orderNo } }, body, ...writeInit(options) })),
  };
}

export function returns({ api }: Transport) {
  return {
    /** Announces a customer return (RMA) of a shipped order; more than was shipped is 409 RETURN_EXCEEDS_SHIPPED. */
    create: (rma: RequestBody<'/returns', 'post'>, options?: CallOptions) =>
      answer(api.POST('/returns', { body: rma, ...writeInit(options) })),
    bulk: (body: RequestBody<'/returns/bulk', 'post'>, options?: BulkOptions) =>
      answer(api.POST('/returns/bulk', { body, ...bulkInit(options) })),
    get: (rmaNo: string, query: { tenantId?: string } = {}) =>
      answer(api.GET('/returns/{rmaNo}', { params: { path: { rmaNo }, query } })),
    list: (query: ListQuery<'/returns'> & { cursor?: string } = {}) =>
      answer(api.GET('/returns', { params: { query } })),
  };
}

export function stock({ api }: Transport) {
  return {
    /** The stock of one item; with `asOf` (ISO time), as it was then. */
    get: (query: NonNullable<paths['/stock']['get']['parameters']['query']>) =>
      answer(api.GET('/stock', { params: { query } })),
    /** The stock of up to 100 items in one call, each as `get` answers it, in the order asked. */
    levels: (query: NonNullable<paths['/stock/levels']['get']['parameters']['query']>) =>
      answer(api.GET('/stock/levels', { params: { query } })),
    /** One page of stock movements, oldest first (walk them all with paginate('/stock/movements')). */
    movements: (query: ListQuery<'/stock/movements'> & { cursor?: string } = {}) =>
      answer(api.GET('/stock/movements', { params: { query } })),
    /** Queues an export of the stock as of a time; jobs.wait, then jobs.file, give its NDJSON file. */
    snapshot: (body: RequestBody<'/stock/snapshots', 'post'> = {}, options: CallOptions = {}): Promise<Accepted> =>
      answer(api.POST('/stock/snapshots', { body, signal: options.signal })) as Promise<Accepted>,
  };
}

export function events({ api }: Transport) {
  return {
    /** One page of the reconciliation feed, oldest first; pass the answer's nextCursor as `after`. */
    list: (query: ListQuery<'/events'> & { after?: string } = {}) => answer(api.GET('/events', { params: { query } })),
  };
}

export function jobs({ api }: Transport) {
  const get = async (jobId: string, options: CallOptions = {}): Promise<JobStatus> =>
    (await answer(api.GET('/jobs/{jobId}', { params: { path: { jobId } }, signal: options.signal }))).data;
  return {
    get,
    /** Polls a bulk job or an import until it is completed, failed or cancelled, and answers its last status. */
    async wait(jobId: string, options: WaitOptions = {}): Promise<JobStatus> {
      const { intervalMs = 1_000, timeoutMs = 600_000, signal } = options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await get(jobId, { signal });
        if (ENDED.has(job.state ?? '')) return job;
        if (Date.now() + intervalMs > deadline) throw new JobWaitTimeoutError(jobId, job.state ?? undefined);
        await delay(intervalMs, signal);
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
}

export function simulations({ api }: Transport) {
  return {
    /**
     * Runs a warehouse operation on the caller's sandbox tenant (receive an ASN or a return, ship an order, adjust or count
     * stock), so its real events and webhooks follow; a key of another tenant gets 403 NOT_A_SANDBOX.
     */
    run: (simulation: RequestBody<'/simulations', 'post'>, options?: CallOptions) =>
      answer(api.POST('/simulations', { body: simulation, ...writeInit(options) })),
  };
}

/** File imports, from whatever sources `bodyOf` reads (the main entry: Blobs and web streams). */
export function imports<Source>(
  { baseUrl, apiKey, send, retry }: Transport,
  bodyOf: (source: Source, options: UploadOptions) => UploadBody | Promise<UploadBody>,
) {
  return {
    /**
     * Streams a file into an import and answers its job (poll it with jobs.wait). A Blob (or a file's path,
     * in @wms/client/node) is read again for a retry; a stream is sent once.
     */
    async upload(source: Source, options: UploadOptions): Promise<Accepted> {
      const body = await bodyOf(source, options);
      const url = new URL(`${baseUrl}/imports`);
      url.searchParams.set('entity', options.entity);
      if (options.tenantId !== undefined) url.searchParams.set('tenantId', options.tenantId);
      const response = await sendWithRetries(
        (key, signal) => {
          const content = body.open();
          return new Request(url, {
            method: 'POST',
            headers: { 'x-api-key': apiKey, ...body.headers, ...(key ? { 'idempotency-key': key } : {}) },
            body: content,
            // A streamed body needs half duplex (the Fetch standard); a Blob is sent with its length.
            ...(content instanceof Blob ? {} : { duplex: 'half' }),
            signal,
          } as RequestInit);
        },
        send,
        {
          ...retry,
          method: 'POST',
          timeoutMs: options.timeoutMs ?? UPLOAD_TIMEOUT_MS,
          idempotencyKey: options.idempotencyKey,
          signal: options.signal,
          replayable: body.replayable,
        },
      );
      if (!response.ok) throw await apiErrorFrom(response);
      return (await response.json()) as Answer<'/imports', 'post', 202>;
    },
  };
}
