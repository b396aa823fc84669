import type { RequestHandler } from 'express';
import { AppError, MISSING_API_KEY, MISSING_SCOPE, hasScope, type ApiKeyScope, type Services } from '@wms/shared';

/** Seed 5.2: `X-API-Key: <key>` or `Authorization: ApiKey <key>`. */
export function extractApiKey(headers: { authorization?: string; 'x-api-key'?: string | string[] }): string | undefined {
  const header = headers['x-api-key'];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct) return direct.trim();
  const match = headers.authorization ? /^ApiKey\s+(\S+)$/i.exec(headers.authorization) : null;
  return match?.[1];
}

/**
 * The API-key guard of every integration route, in the seed's order: extract, verify (hash, active,
 * expiry), then attach the key to the request.
 */
export function apiKeyGuard(services: Pick<Services, 'apiKeys'>): RequestHandler {
  return async (req, _res, next) => {
    const rawKey = extractApiKey(req.headers);
    if (!rawKey) throw AppError.unauthorized(MISSING_API_KEY, 'MISSING_API_KEY');
    req.apiKey = await services.apiKeys.authenticate(rawKey);
    next();
  };
}

/** Seed 5.2 step 4: GET needs `read`, writes need `write`; `admin` passes every scope check. */
export function requireScope(scope: ApiKeyScope): RequestHandler {
  return (req, _res, next) => {
    if (!req.apiKey || !hasScope(req.apiKey, scope)) throw AppError.unauthorized(MISSING_SCOPE, 'MISSING_SCOPE');
    next();
  };
}
