import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  API_KEY_LENGTH,
  INVALID_API_KEY,
  MISSING_API_KEY,
  MISSING_SCOPE,
  hasScope,
  hashKey,
  isUsable,
  isWellFormedKey,
  type ApiKeyPrincipal,
  type ApiKeyRequestLog,
  type ApiKeyScope,
  type ApiKeyVerifier,
  type RefusedOutcome,
  type VerifiedKey,
} from '@wms/api-keys';
import { AppError, type AttemptThrottle, type RateLimitDecision, type SlidingWindowLimiter } from '@wms/platform';
import { attachKey, keyOf } from './caller.js';
import { clientIp } from './client-ip.js';
import { routeTemplate } from './http-metrics.js';
import type { AnsweredHook } from './request-context.js';
import { tooManyRequests } from './too-many-requests.js';
import { apiVersionOf, clientIpOf, setClientIp } from './request-state.js';

/** A client sends its key as `X-API-Key: <key>` or as `Authorization: ApiKey <key>`. */
export function extractApiKey(headers: {
  authorization?: string;
  'x-api-key'?: string | string[];
}): string | undefined {
  const header = headers['x-api-key'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct) return direct.trim();
  const match = headers.authorization ? /^ApiKey\s+(\S+)$/i.exec(headers.authorization) : null;
  return match?.[1];
}

export interface ApiKeyGuardDeps {
  verifier: ApiKeyVerifier;
  limiter: SlidingWindowLimiter;
  /** Per-address throttle of look-ups that find no usable key. */
  failedLookups: AttemptThrottle;
  /** Counts a call of a known key refused by its rate limit, IP whitelist or origins (the rollups' outcomes). */
  countRefused: (apiKeyId: string, outcome: RefusedOutcome) => void;
}

/** A key's scopes follow the method: GET (and HEAD) endpoints need `read`, every write needs `write`. */
export function scopeForMethod(method: string): ApiKeyScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

const invalidKey = () => AppError.unauthorized(INVALID_API_KEY, 'INVALID_API_KEY');

/**
 * The API-key guard of every integration route, its checks in this fixed order: extract; look up
 * (a malformed key is refused before any database look-up); active and not expired; scope (401); IP whitelist
 * (403); origin (403); rate limit (429), as the interface orders them; attach the key and log the request after the answer. A key fresh in the cache and without
 * a rate limit passes without waiting on anything; the other paths return a promise, whose rejection
 * Express hands to the error handler like a thrown error.
 */
export function apiKeyGuard(deps: ApiKeyGuardDeps): RequestHandler {
  return (req, res, next) => {
    const rawKey = extractApiKey(req.headers);
    if (!rawKey) throw AppError.unauthorized(MISSING_API_KEY, 'MISSING_API_KEY');
    if (rawKey.length !== API_KEY_LENGTH) throw invalidKey();
    const hash = hashKey(rawKey);
    // A key fresh in the cache was stored, so well formed; the checksum guards the look-ups only.
    const fresh = deps.verifier.fresh(hash);
    if (!fresh && !isWellFormedKey(rawKey)) throw invalidKey();
    const ip = clientIp(req);
    const pass = (key: VerifiedKey | null) => admit(deps, key, { req, res, next, ip });
    return fresh ? pass(fresh) : lookUp(deps, hash, ip, res).then(pass);
  };
}

interface Admission {
  req: Request;
  res: Response;
  next: NextFunction;
  ip: string;
}

/** Every check after the look-up; a promise only when the rate limiter has to be asked. */
function admit(deps: ApiKeyGuardDeps, key: VerifiedKey | null, admission: Admission): void | Promise<void> {
  const { req, res, ip } = admission;
  if (!key || !isUsable(key.principal)) throw invalidKey();
  const principal = key.principal;
  if (!hasScope(principal, scopeForMethod(req.method))) throw AppError.unauthorized(MISSING_SCOPE, 'MISSING_SCOPE');
  if (key.ipWhitelist && !key.ipWhitelist.allows(ip)) {
    deps.countRefused(principal.id, 'refused');
    throw AppError.forbidden(`Client IP ${ip} is not in the API key's IP whitelist`, 'IP_NOT_ALLOWED');
  }
  const origin = req.headers.origin;
  if (origin !== undefined && key.allowedOrigins && !key.allowedOrigins.allows(origin)) {
    deps.countRefused(principal.id, 'refused');
    throw AppError.forbidden(`Origin ${origin} is not allowed for this API key`, 'ORIGIN_NOT_ALLOWED');
  }
  if (principal.rateLimitPerMinute === 0) return enter(principal, admission);
  return deps.limiter.hit(principal.id, principal.rateLimitPerMinute).then((decision) => {
    setRateLimitHeaders(res, decision, deps.limiter.windowSeconds);
    if (!decision.allowed) {
      deps.countRefused(principal.id, 'rateLimited');
      throw tooManyRequests(
        res,
        'RATE_LIMITED',
        `Rate limit exceeded for this API key. Retry in ${decision.resetSeconds} seconds.`,
        decision.resetSeconds,
      );
    }
    enter(principal, admission);
  });
}

/** Attaches the key (the request log records the answer of every request that carries one) and runs the route. */
function enter(principal: ApiKeyPrincipal, { req, next, ip }: Admission): void {
  attachKey(req, principal);
  setClientIp(req, ip);
  next();
}

/**
 * The request context's answered hook for the key's request log: every request the guard let in is
 * recorded once its answer has gone out, with the time from its arrival. The endpoint is the route
 * template that answered (as the metrics label it), so the log keeps a small id instead of every path.
 */
export function recordKeyRequests(requestLog: ApiKeyRequestLog): AnsweredHook {
  return (req, res, { durationMs }) => {
    const key = keyOf(req);
    if (!key) return;
    requestLog.record({
      apiKeyId: key.id,
      endpoint: routeTemplate(req),
      method: req.method,
      ip: clientIpOf(req) || null,
      origin: req.headers.origin ?? null,
      statusCode: res.statusCode,
      responseTimeMs: durationMs,
      createdAt: new Date(),
      apiVersion: apiVersionOf(req) ?? null,
    });
  };
}

/**
 * A key known to the cache (due for a refresh, or being read) costs one shared database read. Otherwise
 * an address whose look-ups found no usable key too often is refused before it reaches the database;
 * only failed look-ups count, so a busy client whose many requests miss the cache at once (every cache
 * refresh) is never refused for that.
 */
async function lookUp(deps: ApiKeyGuardDeps, hash: string, ip: string, res: Response): Promise<VerifiedKey | null> {
  if (deps.verifier.isCached(hash)) return deps.verifier.lookupHash(hash);
  const wait = await deps.failedLookups.blockedFor(ip);
  if (wait !== null) {
    throw tooManyRequests(
      res,
      'TOO_MANY_INVALID_KEYS',
      `Too many invalid API key attempts from this address. Retry in ${wait} seconds.`,
      wait,
    );
  }
  const key = await deps.verifier.lookupHash(hash);
  if (!key || !isUsable(key.principal)) await deps.failedLookups.failed(ip);
  return key;
}

function setRateLimitHeaders(res: Response, decision: RateLimitDecision, windowSeconds: number): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Policy', `"key";q=${decision.limit};w=${windowSeconds}`);
  res.setHeader('RateLimit', `"key";r=${decision.remaining};t=${decision.resetSeconds}`);
}

/**
 * Route-level scope check for handlers that need more than their method implies. The guard already
 * checks the method's scope (after the key's validity and IP whitelist, before origin and rate limit); `admin` passes.
 */
export function requireScope(scope: ApiKeyScope): RequestHandler {
  return (req, _res, next) => {
    const key = keyOf(req);
    if (!key || !hasScope(key, scope)) throw AppError.unauthorized(MISSING_SCOPE, 'MISSING_SCOPE');
    next();
  };
}
