import { roleValues, type AdminModule, type Principal, type Role } from '../../api';

/** A label for every module the API knows, in the order the portal lists them (a new module fails the typecheck here). */
const MODULE_LABELS: Record<AdminModule, string> = {
  users: 'Users',
  'api-keys': 'API keys',
  webhooks: 'Webhooks',
  audit: 'Audit log',
  warehouses: 'Warehouses',
  inbound: 'Inbound',
  orders: 'Orders',
  inventory: 'Inventory',
  edi: 'EDI partners',
};

export const MODULES = (Object.keys(MODULE_LABELS) as AdminModule[]).map((module) => ({
  module,
  label: MODULE_LABELS[module],
}));

/** The roles from the highest rank to the lowest, as the API lists them. */
export const ROLES: Role[] = [...roleValues];

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
