/** The roles of a user. `admin` passes every permission check. */
export const roles = ['admin', 'manager', 'supervisor', 'operator', 'viewer'] as const;
export type Role = (typeof roles)[number];

/**
 * The admin modules a user may be granted; GET needs the module in adminModules, every other method in
 * adminModulesWrite.
 */
export const adminModules = [
  'users',
  'warehouses',
  'api-keys',
  'webhooks',
  'inbound',
  'orders',
  'inventory',
  'audit',
  'edi',
] as const;
export type AdminModule = (typeof adminModules)[number];

export interface Principal {
  sub: string;
  email: string;
  role: Role;
  tenantId: string | null;
  adminModules: string[];
  adminModulesWrite: string[];
}

export type Access = 'read' | 'write';

export function accessForMethod(method: string): Access {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

export function hasModulePermission(principal: Principal, module: AdminModule, access: Access): boolean {
  if (principal.role === 'admin') return true;
  const granted = access === 'read' ? principal.adminModules : principal.adminModulesWrite;
  return granted.includes(module);
}
