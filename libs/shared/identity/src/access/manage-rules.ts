import { roles, type Principal, type Role } from './permissions.js';

/** What the manage-whom rule reads of a user (an existing one, or one as it would be after a change). */
export interface ManagedUser {
  id?: string;
  role: Role;
  tenantId: string | null;
  adminModules: readonly string[];
  adminModulesWrite: readonly string[];
}

/** admin ranks highest (0), viewer lowest (4). */
export function rankOf(role: Role): number {
  return roles.indexOf(role);
}

/** True when `role` ranks strictly below `than`. */
export function ranksBelow(role: Role, than: Role): boolean {
  return rankOf(role) > rankOf(than);
}

/** The modules of `wanted` the actor does not hold at that level, e.g. `orders (write)`; empty when none. */
export function modulesBeyond(actor: Principal, wanted: Pick<ManagedUser, 'adminModules' | 'adminModulesWrite'>) {
  return [
    ...wanted.adminModules.filter((module) => !actor.adminModules.includes(module)),
    ...wanted.adminModulesWrite
      .filter((module) => !actor.adminModulesWrite.includes(module))
      .map((module) => `${module} (write)`),
  ];
}

/**
 * Who may manage whom. An admin manages every user it can see; any other user manages only users ranked
 * strictly below it whose read and write modules are a subset of its own, so no one can take over an account
 * that reaches more than it does. A tenant-bound actor sees only its tenant's users (the rest do not exist
 * for it). Applies to create (the user as it would be), change, disable, enable and unlock.
 */
export function canManageUser(actor: Principal, target: ManagedUser): boolean {
  if (actor.tenantId && target.tenantId !== actor.tenantId) return false;
  if (actor.role === 'admin') return true;
  return ranksBelow(target.role, actor.role) && modulesBeyond(actor, target).length === 0;
}

/**
 * Another user's password and e-mail are what signing in as that user takes; only an admin sets them
 * (and nobody sets its own here: change-password is the way).
 */
export function canSetCredentials(actor: Principal, target: ManagedUser): boolean {
  return actor.role === 'admin' && target.id !== actor.sub && canManageUser(actor, target);
}
