import type { Request } from 'express';
import { parseCookie } from 'cookie';

/** A value that does not decode is no value (not the raw text): the caller reads it as absent. */
const decodeStrictly = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/** One cookie of the request's Cookie header, decoded; undefined when absent. */
export function readCookie(req: Request, name: string): string | undefined {
  return parseCookie(req.headers.cookie ?? '', { decode: decodeStrictly })[name];
}
