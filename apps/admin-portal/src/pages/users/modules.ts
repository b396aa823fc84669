import type { AdminModule, Principal, Role } from '../../api';

export const MODULES: Array<{ module: AdminModule; label: string }> = [
  { module: 'users', label: 'Users' },
  { module: 'api-keys', label: 'API keys' },
  { module: 'webhooks', label: 'Webhooks' },
  { module: 'audit', label: 'Audit log' },
  { module: 'warehouses', label: 'Warehouses' },
  { module: 'inbound', label: 'Inbound' },
  { module: 'orders', label: 'Orders' },
  { module: 'inventory', label: 'Inventory' },
];

export const ROLES: Role[] = ['admin', 'manager', 'supervisor', 'operator', 'viewer'];

export type Access = 'none' | 'read' | 'write';

/** One access level per module: write implies read (a module in adminModulesWrite is also in adminModules). */
export type ModuleAccess = Record<AdminModule, Access>;

export function accessOf(user: { adminModules: string[]; adminModulesWrite: string[] }): ModuleAccess {
  return Object.fromEntries(
    MODULES.map(({ module }) => [
      module,
      user.adminModulesWrite.includes(module) ? 'write' : user.adminModules.includes(module) ? 'read' : 'none',
    ]),
  ) as ModuleAccess;
}

export function modulesOf(access: ModuleAccess): { adminModules: AdminModule[]; adminModulesWrite: AdminModule[] } {
  const granted = MODULES.map(({ module }) => module);
  return {
    adminModules: granted.filter((module) => access[module] !== 'none'),
    adminModulesWrite: granted.filter((module) => access[module] === 'write'),
  };
}

/** Roles the actor may hand out: an admin any; anyone else only those ranked strictly below its own. */
export function assignableRoles(actor: Principal): Role[] {
  if (actor.role === 'admin') return ROLES;
  return ROLES.slice(ROLES.indexOf(actor.role) + 1);
}

/** The highest access the actor may grant for a module (the API allows granting only what one holds). */
export function grantableAccess(actor: Principal, module: AdminModule): Access {
  if (actor.role === 'admin') return 'write';
  if (actor.adminModulesWrite.includes(module)) return 'write';
  return actor.adminModules.includes(module) ? 'read' : 'none';
}
