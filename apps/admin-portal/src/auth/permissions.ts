import type { AdminModule, Principal } from '../api';

/** Mirrors the API's rule: role admin passes; others need the module in adminModules (read) or adminModulesWrite (change). */
export function canRead(principal: Principal, module: AdminModule): boolean {
  return principal.role === 'admin' || principal.adminModules.includes(module);
}

export function canWrite(principal: Principal, module: AdminModule): boolean {
  return principal.role === 'admin' || principal.adminModulesWrite.includes(module);
}
