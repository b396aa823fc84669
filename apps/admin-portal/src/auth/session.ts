import { http, ok, renewSession, signIn as signInCall, signOut as signOutCall, useTokenSource } from '../api';
import type { Principal } from '../api';
import { queryClient } from '../api/query-client';

/**
 * The signed-in session, held in memory only: the access token lives in this module and nowhere else
 * (no localStorage, no sessionStorage). The refresh token is an httpOnly cookie the page cannot read; it
 * renews the access token a minute before it expires, and signs the user in again after a reload.
 */
export interface Session {
  accessToken: string;
  principal: Principal;
}

export type SessionState = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; session: Session };

const RENEW_BEFORE_EXPIRY_MS = 60_000;
const MIN_RENEW_DELAY_MS = 5_000;

let state: SessionState = { status: 'loading' };
const listeners = new Set<() => void>();
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let renewing: Promise<boolean> | null = null;

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function decodePrincipal(accessToken: string): Principal {
  const payload = accessToken.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (char) => char.charCodeAt(0)))) as Principal;
}

function start(accessToken: string): void {
  const principal = decodePrincipal(accessToken);
  setState({ status: 'signed-in', session: { accessToken, principal } });
  clearTimeout(renewTimer);
  const delay = Math.max(principal.exp * 1000 - Date.now() - RENEW_BEFORE_EXPIRY_MS, MIN_RENEW_DELAY_MS);
  renewTimer = setTimeout(() => void renew(), delay);
}

function end(): void {
  clearTimeout(renewTimer);
  queryClient.clear();
  setState({ status: 'signed-out' });
}

/** Renews the access token from the session cookie; concurrent callers share one renewal. */
export function renew(): Promise<boolean> {
  renewing ??= renewSession()
    .then(({ accessToken }) => {
      start(accessToken);
      return true;
    })
    .catch(() => {
      end();
      return false;
    })
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

export async function signIn(email: string, password: string): Promise<void> {
  const { accessToken } = await signInCall(email, password);
  start(accessToken);
}

/**
 * Ends the session on the server first (its refresh token is revoked, so a copy of the cookie renews
 * nothing), then here; a failed call still signs the page out.
 */
export async function signOut(): Promise<void> {
  clearTimeout(renewTimer);
  await signOutCall().catch(() => undefined);
  end();
}

/** The API sets the readable `wms_session=1` beside the httpOnly refresh cookie, and clears both together. */
function mayHaveSession(): boolean {
  return document.cookie.split(';').some((part) => part.trim() === 'wms_session=1');
}

/**
 * The first load: renews the session when the browser may hold one; otherwise signs out at once, without a
 * refresh call the API could only refuse.
 */
export function resume(): Promise<boolean> {
  if (mayHaveSession()) return renew();
  end();
  return Promise.resolve(false);
}

/**
 * The queue console (an admin-only page outside the portal) cannot receive a bearer token by navigation:
 * the API sets a short-lived cookie for its path, then the browser goes there.
 */
export async function openQueueConsole(): Promise<void> {
  const { url } = await ok(http.POST('/auth/queue-console-session'));
  window.location.assign(url);
}

export const sessionStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: (): SessionState => state,
};

useTokenSource({
  accessToken: () => (state.status === 'signed-in' ? state.session.accessToken : null),
  renew,
});
