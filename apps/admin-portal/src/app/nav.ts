import type { AdminModule, Principal } from '../api';
import { canRead } from '../auth';

export interface NavItem {
  label: string;
  to: string;
  /** The module a non-admin needs to read to see the item; none: everyone signed in. */
  module?: AdminModule;
  /** Shown to a user who reads any of these modules. */
  anyModule?: AdminModule[];
  /** Only for role admin. */
  adminOnly?: boolean;
  /** The queue console, outside the portal: opened after the API issues its session cookie. */
  queueConsole?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { label: 'Overview', to: '/' },
  { label: 'API keys', to: '/api-keys', module: 'api-keys' },
  { label: 'Webhooks', to: '/webhooks', module: 'webhooks' },
  { label: 'EDI partners', to: '/edi/partners', module: 'edi' },
  { label: 'Users', to: '/users', module: 'users' },
  { label: 'Returns', to: '/returns', module: 'inbound' },
  { label: 'Stock history', to: '/stock', module: 'inventory' },
  { label: 'Imports', to: '/imports', anyModule: ['warehouses', 'inbound', 'orders'] },
  { label: 'Audit log', to: '/audit', module: 'audit' },
  { label: 'Tenants', to: '/tenants', adminOnly: true },
  { label: 'Queues', to: '/admin/queues/', adminOnly: true, queueConsole: true },
];

/** What the signed-in user's role and modules let them open. */
export function navFor(principal: Principal, items = NAV_ITEMS): NavItem[] {
  return items.filter((item) => {
    if (item.adminOnly) return principal.role === 'admin';
    if (item.anyModule) return item.anyModule.some((module) => canRead(principal, module));
    return !item.module || canRead(principal, item.module);
  });
}
