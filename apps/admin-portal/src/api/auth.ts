import { anonymousHttp, ok } from './client';
import type { components } from './schema';

export type SessionAnswer = components['schemas']['RenewedSession'];

/** Signs in; the refresh token is set by the API as an httpOnly cookie and never reaches this page. */
export function signIn(email: string, password: string) {
  return ok(anonymousHttp.POST('/auth/login', { body: { email, password, refreshCookie: true } }));
}

/** A new access token for the session cookie; the API renews the cookie too. */
export function renewSession(): Promise<SessionAnswer> {
  return ok(anonymousHttp.POST('/auth/refresh', { body: {} }));
}

/** Clears the session cookie, and the queue console's cookie an admin may have opened. */
export async function signOut(): Promise<void> {
  await Promise.all([ok(anonymousHttp.POST('/auth/logout')), ok(anonymousHttp.DELETE('/auth/queue-console-session'))]);
}
