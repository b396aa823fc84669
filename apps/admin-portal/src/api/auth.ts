import { apiRequest } from './client';
import type { components } from './schema';

export type SessionAnswer = components['schemas']['RenewedSession'];

/** Signs in; the refresh token is set by the API as an httpOnly cookie and never reaches this page. */
export function signIn(email: string, password: string) {
  return apiRequest<components['schemas']['Session']>('POST', '/auth/login', {
    anonymous: true,
    body: { email, password, refreshCookie: true },
  });
}

/** A new access token for the session cookie; the API renews the cookie too. */
export function renewSession() {
  return apiRequest<SessionAnswer>('POST', '/auth/refresh', { anonymous: true, body: {} });
}

/** Clears the session cookie, and the queue console's cookie an admin may have opened. */
export async function signOut(): Promise<void> {
  await Promise.all([
    apiRequest<void>('POST', '/auth/logout', { anonymous: true }),
    apiRequest<void>('DELETE', '/auth/queue-console-session', { anonymous: true }),
  ]);
}
