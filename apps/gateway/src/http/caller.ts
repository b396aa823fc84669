import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { ParamsDictionary, RouteParameters } from 'express-serve-static-core';
import type { ApiKeyPrincipal } from '@wms/api-keys';
import type { AccessTokenPayload } from '@wms/identity';
import { AppError } from '@wms/platform';

/**
 * Who calls, as the guards found it. Nothing on the global `Request` type says a caller is there: a route
 * declares what it needs (an API key, a signed-in person, or nothing) by the handlers it is mounted with,
 * and receives the caller typed (`KeyRequest`, `PersonRequest`). The wrappers check that the guard ran, so
 * a route mounted without its guard answers 401 instead of reading an absent caller.
 */

/** A request the API-key guard let in: its key. */
export type KeyRequest<P = ParamsDictionary> = Request<P> & { readonly apiKey: ApiKeyPrincipal };
/** A request the JWT guard let in: the signed-in person's verified token. */
export type PersonRequest<P = ParamsDictionary> = Request<P> & { readonly principal: AccessTokenPayload };

type Handler<R> = (req: R, res: Response, next: NextFunction) => unknown;
export type KeyHandler<P = ParamsDictionary> = Handler<KeyRequest<P>>;
export type PersonHandler<P = ParamsDictionary> = Handler<PersonRequest<P>>;

type Attached = Request & { apiKey?: ApiKeyPrincipal; principal?: AccessTokenPayload };

/** The API-key guard attaches the key it admitted. */
export function attachKey(req: Request, key: ApiKeyPrincipal): void {
  (req as Attached).apiKey = key;
}

/** The JWT guard attaches the verified token. */
export function attachPerson(req: Request, person: AccessTokenPayload): void {
  (req as Attached).principal = person;
}

/** The key of a request, if the API-key guard let it in. */
export function keyOf(req: Request): ApiKeyPrincipal | undefined {
  return (req as Attached).apiKey;
}

/** The signed-in person of a request, if the JWT guard let it in. */
export function personOf(req: Request): AccessTokenPayload | undefined {
  return (req as Attached).principal;
}

const hasKey = <P>(req: Request<P>): req is KeyRequest<P> => keyOf(req as Request) !== undefined;
const hasPerson = <P>(req: Request<P>): req is PersonRequest<P> => personOf(req as Request) !== undefined;

/** A handler of a route that needs an API key (mounted behind the API-key guard). */
export function withKey<P = ParamsDictionary>(handler: KeyHandler<P>): RequestHandler<P> {
  return (req, res, next) => {
    if (!hasKey(req)) throw AppError.unauthorized('Missing API key', 'MISSING_API_KEY');
    return handler(req, res, next) as void | Promise<void>;
  };
}

/** A handler of a route that needs a signed-in person (mounted behind the JWT guard). */
export function withPerson<P = ParamsDictionary>(handler: PersonHandler<P>): RequestHandler<P> {
  return (req, res, next) => {
    if (!hasPerson(req)) throw AppError.unauthorized('Missing bearer token');
    return handler(req, res, next) as void | Promise<void>;
  };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The routes of a router whose every handler needs a signed-in person and receives it typed. */
export type PersonRoutes = Record<
  Method,
  <Path extends string>(path: Path, ...handlers: Array<PersonHandler<RouteParameters<Path>>>) => void
>;

/**
 * Declares the routes of signed-in people on `router`: each runs `guards` first (the JWT guard and the
 * permission it needs, unless the router runs them for all its routes), then its handlers with the person.
 */
export function personRoutes(router: Router, ...guards: RequestHandler[]): PersonRoutes {
  const on =
    (method: Method) =>
    <Path extends string>(path: Path, ...handlers: Array<PersonHandler<RouteParameters<Path>>>) => {
      router[method](path, ...guards, ...handlers.map((handler) => withPerson(handler)));
    };
  return { get: on('get'), post: on('post'), put: on('put'), patch: on('patch'), delete: on('delete') };
}
