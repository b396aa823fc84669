import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The headers of every JSON answer under /api/ (the integration API and the admin API), as the OWASP REST
 * Security Cheat Sheet lists them for APIs: nothing may frame, load or cache the answer, and its type is not
 * sniffed. Helmet's defaults are written for HTML documents (a page's script and style sources, legacy
 * browser switches); on a JSON answer they protect nothing, and each header is work for Node's HTTP code on
 * every answer (docs/adr/0063-security-headers-for-json-answers.md).
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

/** Paths whose answers are JSON for programs: everything else (the portal, /docs, the queue console) is a page. */
const API_PREFIX = '/api/';

/**
 * Security headers on every answer: the API set above under /api/, helmet()'s default headers everywhere
 * else (pages set their own Content-Security-Policy on top). Both lists are worked out once: neither depends
 * on the request, so an answer gets its list from one loop rather than from helmet's chain of a dozen
 * middleware.
 */
export function securityHeaders(): RequestHandler {
  const page = helmetDefaults();
  return (req, res, next) => {
    const api = req.url.startsWith(API_PREFIX);
    for (const [name, value] of api ? API_SECURITY_HEADERS : page.set) res.setHeader(name, value);
    // Express' X-Powered-By is disabled on the app; helmet's removal only matters for pages of sub-apps.
    if (!api) for (const name of page.removed) res.removeHeader(name);
    next();
  };
}

/** What helmet() does to a response with its default options: the headers it sets and those it removes. */
export function helmetDefaults(): { set: Array<[string, string]>; removed: string[] } {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let done = false;
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return { set, removed };
}
