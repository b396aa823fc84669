import { Router } from 'express';

/**
 * Every router of the gateway, and the app itself, match paths case-sensitively: a path is answered only
 * in the spelling its route declares. Express matches without case by default, so `/API/v1/auth/login`
 * would reach sign-in while everything that reads the path as text (security headers, metrics, the request
 * log, a proxy's rules) saw another route; a non-canonical spelling is a 404 instead
 * (docs/adr/0023-hostile-input-is-a-4xx.md).
 */
export function caseSensitiveRouter(): Router {
  return Router({ caseSensitive: true });
}
