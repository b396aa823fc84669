import type { RequestHandler } from 'express';
import type { AttemptThrottle } from '@wms/platform';
import { clientIp } from './client-ip.js';
import { tooManyRequests } from './too-many-requests.js';

/** Per-address throttling of login attempts: each attempt counts until it succeeds. */
export function loginThrottle(throttle: AttemptThrottle): RequestHandler {
  return async (req, res, next) => {
    const ip = clientIp(req);
    const wait = await throttle.attempt(ip);
    if (wait !== null) {
      throw tooManyRequests(
        res,
        'TOO_MANY_LOGIN_ATTEMPTS',
        `Too many failed login attempts from this address. Retry in ${wait} seconds.`,
        wait,
      );
    }
    res.on('finish', () => {
      if (res.statusCode < 400) void throttle.succeeded(ip);
    });
    next();
  };
}
