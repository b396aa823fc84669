import type { Request } from 'express';
import { normalizeIp } from '@wms/api-keys';

/**
 * The client address under TRUST_PROXY: Express' req.ip believes X-Forwarded-For only as far as trusted
 * proxies wrote it. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is reported as the IPv4 address.
 */
export function clientIp(req: Request): string {
  // Without X-Forwarded-For, req.ip is the socket's address whatever TRUST_PROXY says; skip its parsing.
  if (req.headers['x-forwarded-for'] === undefined) return normalizeIp(req.socket.remoteAddress ?? '');
  return normalizeIp(req.ip ?? req.socket.remoteAddress ?? '');
}
