import { useSyncExternalStore } from 'react';
import type { AdminModule, Principal } from '../api';
import { canRead, canWrite } from './permissions';
import { sessionStore, type SessionState } from './session';

export function useSessionState(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.snapshot);
}

/** The signed-in principal; only for pages behind the sign-in guard. */
export function usePrincipal(): Principal {
  const state = useSessionState();
  if (state.status !== 'signed-in') throw new Error('usePrincipal outside a signed-in page');
  return state.session.principal;
}

export function usePermission(module: AdminModule): { read: boolean; write: boolean } {
  const principal = usePrincipal();
  return { read: canRead(principal, module), write: canWrite(principal, module) };
}
