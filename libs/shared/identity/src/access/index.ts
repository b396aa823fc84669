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
export {
  canManageUser,
  canSetCredentials,
  modulesBeyond,
  rankOf,
  ranksBelow,
  type ManagedUser,
} from './manage-rules.js';
export {
  ADMIN_ONLY_SCOPE,
  EVENT_REACH,
  SCOPE_REACH,
  assertEventsWithinReach,
  assertScopesWithinReach,
  eventsBeyond,
  readableEvents,
  scopesBeyond,
} from './reach.js';
