import type { RequestHandler, Router } from 'express';
import type { AdminModule, TokenService } from '@wms/identity';
import { Joi, type DocumentedRoute, type RouteAnswer } from '@wms/platform';
import {
  caseSensitiveRouter,
  requireAdminRole,
  requireJwt,
  requirePermission,
  withPerson,
  type PersonHandler,
} from '../http/index.js';

/** Who may call an admin route. */
export type AdminAccess =
  /** No token: sign-in, renewal, sign-out. */
  | 'public'
  /** Any signed-in user (a valid access token). */
  | 'signed-in'
  /** Role admin only. */
  | 'admin'
  /** The module's permission: read (adminModules) for GET, write (adminModulesWrite) otherwise. */
  | { module: AdminModule; permission: 'read' | 'write' };

/** One route of the admin API (JWT, under /api/v1): what the gateway mounts and what its document says. */
export interface AdminRoute extends DocumentedRoute {
  tag: AdminTag;
  access: AdminAccess;
  /** Takes an Idempotency-Key (the warehouse operations' writes). */
  idempotent?: boolean;
}

export const ADMIN_TAGS = {
  auth: 'sign-in, token renewal and sign-out, self-registration, the signed-in user',
  tenants: 'tenants (role admin)',
  warehouses: 'warehouses of a tenant (module warehouses)',
  users: 'users, their roles and module permissions (module users)',
  'api-keys': 'API keys of the integration API, their roll and traffic (module api-keys)',
  audit: 'the audit trail of admin changes (module audit)',
  webhooks: 'webhook subscriptions, their deliveries, recovery and replay (module webhooks)',
  overview: "the admin portal's first page",
  imports: "file imports of items, partners, locations, ASNs and orders (each entity its module's permission)",
  edi: 'EDI trading partners, their SFTP accounts and documents, resend and the 846 on demand (module edi)',
  operations:
    'allocate, release, pick, ship, adjust and count (modules orders and inventory); receive returns (module inbound)',
} as const;
export type AdminTag = keyof typeof ADMIN_TAGS;

export const error = (description: string): RouteAnswer => ({ description, body: 'Error' });
export const ok = (description: string, body: RouteAnswer['body']): RouteAnswer => ({ description, body });

/** The refusals every route behind the token guard may answer. */
export const GUARDED: Record<number, RouteAnswer> = {
  401: error('no access token, or one that is invalid or expired'),
  403: error('the user lacks the permission the route needs'),
};

export const NOT_FOUND: Record<number, RouteAnswer> = {
  404: error("no such record (another tenant's record is not found either)"),
};
export const INVALID: Record<number, RouteAnswer> = { 400: error('VALIDATION_FAILED: details names every bad field') };

/** The headers of a paged list's answer: the next page's cursor, absent on the last page. */
export const NEXT_PAGE_HEADERS = {
  'X-Next-Cursor': {
    description: 'pass it back as cursor for the next page; absent on the last page',
    schema: { type: 'string' },
  },
  Link: { description: 'RFC 8288 rel="next": this query with the next cursor', schema: { type: 'string' } },
};

/** A module route: read for GET, write otherwise. */
export const moduleAccess = (module: AdminModule, method: DocumentedRoute['method']): GuardedAccess => ({
  module,
  permission: method === 'get' ? 'read' : 'write',
});

/** A JSON array of a component (`User[]`). */
export const listOf = (component: string) => Joi.array().items(Joi.link(`#${component}`));

/** The access of a route behind the token guard. */
export type GuardedAccess = Exclude<AdminAccess, 'public'>;

/**
 * An admin route declared once: what its document says (an `AdminRoute`) and what the gateway runs. The
 * router is made from the declarations (`adminRouter`) and the admin OpenAPI document from the same
 * entries, so a route cannot be mounted undocumented or documented unmounted, and its guard is the access
 * its document names. `D` is what the route file's handlers work with (its services). Its handlers receive
 * the signed-in person typed.
 */
export interface AdminEndpoint<D> extends AdminRoute {
  access: GuardedAccess;
  /** Checks after the access, in order, before the handler (the path's id, a reach check on its record). */
  before?: ReadonlyArray<(deps: D) => PersonHandler<Record<string, string>>>;
  handle: (deps: D) => PersonHandler<Record<string, string>>;
}

/** A public admin route (sign-in, renewal, sign-out), declared once as the others: no one is signed in yet. */
export interface PublicEndpoint<D> extends AdminRoute {
  access: 'public';
  handle: (deps: D) => RequestHandler<Record<string, string>>;
}

/** The guards of a declared access: the token, then the role or the module permission it names. */
function accessGuards(access: GuardedAccess, tokens: TokenService): RequestHandler[] {
  const jwt = requireJwt(tokens);
  if (access === 'signed-in') return [jwt];
  if (access === 'admin') return [jwt, requireAdminRole];
  return [jwt, requirePermission(access.module, access.permission)];
}

/**
 * A router of the declared routes (their paths are whole: mount it on the admin base path itself): each route's access guards, then its
 * `before` checks, then its handler, which receives the signed-in person typed.
 */
export function adminRouter<D>(
  endpoints: ReadonlyArray<AdminEndpoint<D> | PublicEndpoint<D>>,
  deps: D,
  tokens: TokenService,
): Router {
  const router = caseSensitiveRouter();
  for (const endpoint of endpoints) {
    if (endpoint.access === 'public') {
      router[endpoint.method](endpoint.path, endpoint.handle(deps));
      continue;
    }
    const handlers = [...(endpoint.before ?? []), endpoint.handle].map((make) => make(deps));
    router[endpoint.method](
      endpoint.path,
      ...accessGuards(endpoint.access, tokens),
      ...handlers.map((handler) => withPerson(handler)),
    );
  }
  return router;
}
