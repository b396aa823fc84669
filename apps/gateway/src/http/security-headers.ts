import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The headers of every JSON answer under /api/ (the integration API and the admin API), as the OWASP REST
 * Security Cheat Sheet lists them for APIs: nothing may frame, load or cache the answer, and its type is not
 * sniffed. Helmet's defaults are written for HTML documents (a page's script and style sources, legacy
 * browser switches); on a JSON answer they protect nothing, and each header is work for Node's HTTP code on
 * every answer (docs/adr/0023-hostile-input-is-a-4xx.md).
 */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * Paths whose answers are JSON for programs: everything else (the portal, /docs, the queue console) is a page.
 * Compared without case: another spelling of an API path is a 404 (routing is case-sensitive), and that
 * answer is JSON too.
 */
const API_PREFIX = /^\/api\//i;

/**
 * Security headers on every answer: the API set above under /api/, and helmet() with its defaults
 * everywhere else (pages set their own Content-Security-Policy on top).
 */
export function securityHeaders(): RequestHandler {
  const pageHeaders = helmet();
  return (req, res, next) => {
    if (!API_PREFIX.test(req.url)) {
      pageHeaders(req, res, next);
      return;
    }
    for (const [name, value] of API_SECURITY_HEADERS) res.setHeader(name, value);
    next();
  };
}
