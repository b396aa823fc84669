import type { BusinessEventName } from '@wms/events';
import { AppError } from '@wms/platform';
import { hasModulePermission, type Access, type AdminModule, type Principal } from './permissions.js';

/**
 * What an API key's scopes and a subscription's event types reach, in admin modules: a user creates keys and
 * subscriptions that reach only what its own modules reach (docs/security.md, "Who may do what").
 *
 * - `write`: the integration API writes master data (items, partners, locations: module `warehouses`),
 *   ASNs and GRNs (`inbound`) and orders and their cancellation (`orders`), so it needs write on all three;
 * - `read`: the GET endpoints return orders (`orders`), ASNs with their GRNs (`inbound`), stock
 *   (`inventory`) and the event feed, whose events belong to those same modules, so it needs read on all three;
 * - `admin`: passes every scope check of the integration API; only an admin grants it.
 * Other scope labels grant nothing and need nothing.
 */
export const SCOPE_REACH = {
  write: { access: 'write', modules: ['warehouses', 'inbound', 'orders'] },
  read: { access: 'read', modules: ['inbound', 'orders', 'inventory'] },
} as const satisfies Record<string, { access: Access; modules: readonly AdminModule[] }>;

/** The scope only an admin may put on a key. */
export const ADMIN_ONLY_SCOPE = 'admin';

/**
 * The module that owns each event's data; a subscriber to the event needs read on it. `webhook.disabled`
 * tells about the subscription itself (module `webhooks`, which managing subscriptions takes anyway).
 * Every business event must be listed: a new event does not compile until it has an owner here.
 */
export const EVENT_REACH = {
  'asn.received': 'inbound',
  'asn.completed': 'inbound',
  'order.allocated': 'orders',
  'order.released': 'orders',
  'order.shipped': 'orders',
  'order.cancelled': 'orders',
  'stock.adjusted': 'inventory',
  'cyclecount.variance': 'inventory',
  // Receiving returned goods is inbound work: the returns' operations take the inbound module.
  'return.received': 'inbound',
  'return.completed': 'inbound',
  // An import's counts and its errors link; imports are mostly master data, whose module is `warehouses`.
  'import.completed': 'warehouses',
  'webhook.disabled': 'webhooks',
} as const satisfies Record<BusinessEventName | 'webhook.disabled', AdminModule>;

/** `*` in a subscription's events: every business event (not `webhook.disabled`). */
const WILDCARD_EVENTS = (Object.keys(EVENT_REACH) as Array<keyof typeof EVENT_REACH>).filter(
  (name) => name !== 'webhook.disabled',
);

/** What the actor lacks to grant these scopes, e.g. `write on warehouses`; empty when it may. */
export function scopesBeyond(actor: Principal, scopes: readonly string[]): string[] {
  if (actor.role === 'admin') return [];
  const missing = new Set<string>();
  for (const scope of scopes) {
    if (scope === ADMIN_ONLY_SCOPE) {
      missing.add('the admin role (scope admin)');
      continue;
    }
    const reach = SCOPE_REACH[scope as keyof typeof SCOPE_REACH] as (typeof SCOPE_REACH)[keyof typeof SCOPE_REACH];
    if (!reach) continue;
    for (const module of reach.modules) {
      if (!hasModulePermission(actor, module, reach.access)) missing.add(`${reach.access} on ${module}`);
    }
  }
  return [...missing];
}

/** What the actor lacks to subscribe to these event types (`*` = every business event); empty when it may. */
export function eventsBeyond(actor: Principal, events: readonly string[]): string[] {
  if (actor.role === 'admin') return [];
  const names = events.flatMap((event) => (event === '*' ? WILDCARD_EVENTS : [event]));
  const missing = new Set<string>();
  for (const name of names) {
    const module = EVENT_REACH[name as keyof typeof EVENT_REACH] as AdminModule | undefined;
    if (module && !hasModulePermission(actor, module, 'read')) missing.add(`read on ${module} (${name})`);
  }
  return [...missing];
}

/**
 * The event types the actor may read (the ones its subscriptions may name): null for an admin, who reads every
 * one; otherwise each event whose owning module it reads.
 */
export function readableEvents(actor: Principal): string[] | null {
  if (actor.role === 'admin') return null;
  return (Object.keys(EVENT_REACH) as Array<keyof typeof EVENT_REACH>).filter((name) =>
    hasModulePermission(actor, EVENT_REACH[name], 'read'),
  );
}

/** 403 SCOPE_BEYOND_MODULES naming what the actor lacks, when a key with these scopes would reach beyond it. */
export function assertScopesWithinReach(actor: Principal, scopes: readonly string[]): void {
  const missing = scopesBeyond(actor, scopes);
  if (missing.length) {
    throw AppError.forbidden(
      `An API key with these scopes would reach beyond your modules; missing: ${missing.join(', ')}`,
      'SCOPE_BEYOND_MODULES',
    );
  }
}

/** 403 EVENTS_BEYOND_MODULES naming what the actor lacks, when a subscription to these events would reach beyond it. */
export function assertEventsWithinReach(actor: Principal, events: readonly string[]): void {
  const missing = eventsBeyond(actor, events);
  if (missing.length) {
    throw AppError.forbidden(
      `A subscription to these events would reach beyond your modules; missing: ${missing.join(', ')}`,
      'EVENTS_BEYOND_MODULES',
    );
  }
}
