export {
  roles,
  adminModules,
  hasModulePermission,
  accessForMethod,
  type Role,
  type AdminModule,
  type Principal,
  type Access,
} from './permissions.js';
