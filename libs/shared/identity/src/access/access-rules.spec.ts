import { canManageUser, canSetCredentials } from './manage-rules.js';
import type { Principal, Role } from './permissions.js';
import { EVENT_REACH, SCOPE_REACH, eventsBeyond, scopesBeyond } from './reach.js';
import { businessEventNames } from '@wms/events';

const actor = (role: Role, read: string[], write: string[] = read, tenantId: string | null = null): Principal => ({
  sub: 'actor',
  email: 'actor@example.test',
  role,
  tenantId,
  adminModules: read,
  adminModulesWrite: write,
});
const user = (role: Role, read: string[] = [], write: string[] = [], tenantId: string | null = null) => ({
  id: 'target',
  role,
  tenantId,
  adminModules: read,
  adminModulesWrite: write,
});

describe('who may manage whom (canManageUser, canSetCredentials)', () => {
  it('a manager manages lower ranks holding a subset of its modules, never a peer or a higher rank', () => {
    const manager = actor('manager', ['users', 'orders'], ['users']);

    expect(canManageUser(manager, user('supervisor', ['orders']))).toBe(true);
    expect(canManageUser(manager, user('manager'))).toBe(false);
    expect(canManageUser(manager, user('admin'))).toBe(false);
  });

  it('a user holding a module the actor lacks, for reading or for writing, is out of reach', () => {
    const manager = actor('manager', ['users', 'orders'], ['users']);

    expect(canManageUser(manager, user('viewer', ['inventory']))).toBe(false);
    expect(canManageUser(manager, user('viewer', ['orders'], ['orders']))).toBe(false);
  });

  it('an admin manages everyone it sees; a tenant-bound admin sees only its tenant', () => {
    expect(canManageUser(actor('admin', []), user('admin', [], [], 't2'))).toBe(true);
    expect(canManageUser(actor('admin', [], [], 't1'), user('viewer', [], [], 't2'))).toBe(false);
    expect(canManageUser(actor('admin', [], [], 't1'), user('manager', [], [], 't1'))).toBe(true);
  });

  it('only an admin sets credentials, and not its own', () => {
    expect(canSetCredentials(actor('manager', ['users']), user('viewer'))).toBe(false);
    expect(canSetCredentials(actor('admin', []), user('manager'))).toBe(true);
    expect(canSetCredentials(actor('admin', []), { ...user('admin'), id: 'actor' })).toBe(false);
  });
});

describe('what key scopes and event types reach (scopesBeyond, eventsBeyond)', () => {
  it('every business event has an owning module', () => {
    expect(Object.keys(EVENT_REACH).sort()).toEqual([...businessEventNames, 'webhook.disabled'].sort());
  });

  it('write needs write on every module the integration API writes; read needs read on what it returns', () => {
    const none = actor('manager', ['api-keys']);

    expect(scopesBeyond(none, ['write'])).toEqual(SCOPE_REACH.write.modules.map((module) => `write on ${module}`));
    expect(scopesBeyond(none, ['read'])).toEqual(SCOPE_REACH.read.modules.map((module) => `read on ${module}`));
    expect(scopesBeyond(actor('manager', ['inbound', 'orders', 'inventory'], []), ['read'])).toEqual([]);
  });

  it('admin scope needs the admin role; labels need nothing; an admin passes', () => {
    expect(scopesBeyond(actor('manager', []), ['admin'])).toEqual(['the admin role (scope admin)']);
    expect(scopesBeyond(actor('viewer', []), ['reporting'])).toEqual([]);
    expect(scopesBeyond(actor('admin', []), ['admin', 'read', 'write'])).toEqual([]);
  });

  it('an event needs read on its module; * needs them all', () => {
    const orders = actor('manager', ['webhooks', 'orders'], []);

    expect(eventsBeyond(orders, ['order.shipped', 'webhook.disabled'])).toEqual([]);
    expect(eventsBeyond(orders, ['stock.adjusted'])).toEqual(['read on inventory (stock.adjusted)']);
    expect(eventsBeyond(orders, ['*'])).toEqual([
      'read on inbound (asn.received)',
      'read on inbound (asn.completed)',
      'read on inventory (stock.adjusted)',
      'read on inventory (cyclecount.variance)',
      'read on inbound (return.received)',
      'read on inbound (return.completed)',
      'read on warehouses (import.completed)',
      'read on warehouses (bulk.completed)',
    ]);
  });
});
