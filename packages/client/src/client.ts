import createFetchClient, { type Client } from 'openapi-fetch';
import { answer, type Transport } from './calls.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, retryingFetch, type RetryOptions } from './retrying-fetch.js';
import type { paths } from './schema.js';
import * as resources from './resources.js';
import { uploadBody, type UploadBody, type UploadOptions, type UploadSource } from './uploads.js';
import { LIST_CURSORS, type ListItem, type ListPath, type ListQuery, type Page } from './types.js';
import { unwrapWebhook } from './webhooks.js';
import { API_VERSION } from './version.js';

/** Where the integration API lives under the service's address. */
export const INTEGRATION_BASE = '/api/v1/integration/v1';

export interface ClientOptions {
  /** The service's address (https://wms.example.com), or its integration base (…/api/v1/integration/v1). */
  baseUrl: string;
  /** The API key, sent as X-Api-Key. */
  apiKey: string;
  /** A fetch to send with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Attempts after the first (default 3), or the retry settings. Only a repeatable call is sent again (a GET,
   * or a POST, which always carries an Idempotency-Key): on 429 and 503 after their Retry-After, on a network
   * error or a timed-out attempt after a jittered backoff.
   */
  retries?: number | Partial<RetryOptions>;
  /**
   * How long one attempt may take, its answer read included, in milliseconds (default 60 000, above the
   * service's default bulk wait of 30 s); an upload has its own (UploadOptions.timeoutMs). An attempt past it is
   * abandoned and, when repeatable, sent again; past the last one the call rejects with a `TimeoutError`.
   */
  timeoutMs?: number;
}

function retryOptionsOf(retries: ClientOptions['retries']): RetryOptions {
  if (typeof retries === 'number') return { ...DEFAULT_RETRIES, retries };
  return { ...DEFAULT_RETRIES, ...retries };
}

function transportOf(options: ClientOptions): Transport {
  const root = options.baseUrl.replace(/\/+$/, '');
  const baseUrl = root.endsWith(INTEGRATION_BASE) ? root : `${root}${INTEGRATION_BASE}`;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retry = retryOptionsOf(options.retries);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  /** The openapi-fetch client itself, with the key, the retries, the timeout and the Idempotency-Key: any route, answers not thrown. */
  const api: Client<paths> = createFetchClient<paths>({
    baseUrl,
    headers: { 'x-api-key': options.apiKey, 'wms-version': API_VERSION },
    fetch: retryingFetch(send, { ...retry, timeoutMs }),
  });
  return { api, baseUrl, apiKey: options.apiKey, send, retry };
}

/**
 * The client over the upload sources `bodyOf` reads: the main entry's takes Blobs and web streams, the
 * Node entry's paths and Node streams as well.
 */
export function clientWith<Source>(
  options: ClientOptions,
  bodyOf: (source: Source, options: UploadOptions) => UploadBody | Promise<UploadBody>,
) {
  const transport = transportOf(options);
  const { api } = transport;
  const asns = resources.asns(transport);
  const grns = resources.grns(transport);
  return {
    api,
    items: resources.items(transport),
    partners: resources.partners(transport),
    locations: resources.locations(transport),
    asns,
    /** @deprecated Use `asns`: the client names each resource by its plural. */
    asn: asns,
    orders: resources.orders(transport),
    returns: resources.returns(transport),
    grns,
    /** @deprecated Use `grns`: the client names each resource by its plural. */
    grn: grns,
    stock: resources.stock(transport),
    events: resources.events(transport),
    jobs: resources.jobs(transport),
    simulations: resources.simulations(transport),
    imports: resources.imports(transport, bodyOf),
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

/** The integration API in one object: every route, typed from the service's OpenAPI document. */
export function createClient(options: ClientOptions) {
  return clientWith<UploadSource>(options, (source, upload) => uploadBody(source, upload));
}

export type WmsClient = ReturnType<typeof createClient>;
