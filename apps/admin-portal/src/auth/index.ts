export {
  signIn,
  signOut,
  renew,
  resume,
  openQueueConsole,
  decodePrincipal,
  sessionStore,
  type Session,
  type SessionState,
} from './session';
export { canRead, canWrite } from './permissions';
export { useSessionState, usePrincipal, usePermission } from './hooks';
