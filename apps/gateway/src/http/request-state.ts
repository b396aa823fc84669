import type { IncomingMessage } from 'node:http';
import type { ApiVersion } from '@wms/platform';

/**
 * What the gateway learns about a request on its way in, kept in one place instead of on the global
 * `Request` type: a handler reads only what its middleware wrote, through the readers below. The state is
 * one object under a symbol no other code can name, made with all its slots so every request's has the same
 * shape; the request context makes it first (app.ts runs it before any other middleware).
 */
class RequestState {
  /** UUID v4 of this request; also in every answer body and the X-Request-Id header. */
  requestId: string | undefined = undefined;
  /** The trace id of this request (its span's, or a caller's `traceparent`'s); travels with the jobs and events it causes. */
  traceId: string | undefined = undefined;
  /** The body's bytes as received (the JSON parser keeps them), for the idempotency fingerprint. */
  rawBody: Buffer | undefined = undefined;
  /** The client address under TRUST_PROXY, as the API-key guard worked it out for the key's checks and log. */
  clientIp: string | undefined = undefined;
  /** The dated version this integration request is served in: its `Wms-Version` header's, else its key's. */
  apiVersion: ApiVersion | undefined = undefined;
}

const STATE = Symbol('requestState');

/** Any request Node or Express hands over: the JSON parser's `verify` sees it before Express' prototype does. */
type Held = IncomingMessage & { [STATE]?: RequestState };

const stateOf = (req: IncomingMessage): RequestState | undefined => (req as Held)[STATE];

function writableStateOf(req: IncomingMessage): RequestState {
  return ((req as Held)[STATE] ??= new RequestState());
}

/** The request context starts the request's state with its ids. */
export function setRequestIds(req: IncomingMessage, requestId: string, traceId: string | undefined): void {
  const state = writableStateOf(req);
  state.requestId = requestId;
  state.traceId = traceId;
}

/** The request's id: every request has one, as the request context runs first. */
export const requestIdOf = (req: IncomingMessage): string => stateOf(req)?.requestId as string;

export const traceIdOf = (req: IncomingMessage): string | undefined => stateOf(req)?.traceId;

export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => stateOf(req)?.rawBody;

export function setRawBody(req: IncomingMessage, bytes: Buffer): void {
  writableStateOf(req).rawBody = bytes;
}

export const clientIpOf = (req: IncomingMessage): string | undefined => stateOf(req)?.clientIp;

export function setClientIp(req: IncomingMessage, ip: string): void {
  writableStateOf(req).clientIp = ip;
}

/** The version of an integration request (undefined for any other). */
export const apiVersionOf = (req: IncomingMessage): ApiVersion | undefined => stateOf(req)?.apiVersion;

export function setApiVersion(req: IncomingMessage, version: ApiVersion): void {
  writableStateOf(req).apiVersion = version;
}
