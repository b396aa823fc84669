import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import helmet from 'helmet';
import { securityHeaders } from './security-headers.js';

/** A response that records its headers, as far as helmet and the computed headers touch it. */
function recordingResponse() {
  const headers = new Map<string, string>([['x-powered-by', 'Express']]);
  return {
    headers,
    setHeader(name: string, value: string) {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
}

describe('the security headers', () => {
  it('are the headers helmet() sets, with the same values, and X-Powered-By removed', () => {
    const byHelmet = recordingResponse();
    helmet()({} as IncomingMessage, byHelmet as unknown as ServerResponse, () => undefined);
    const computed = recordingResponse();
    let passed = false;

    securityHeaders()({} as Request, computed as unknown as Response, () => (passed = true));

    expect(passed).toBe(true);
    expect(Object.fromEntries(computed.headers)).toEqual(Object.fromEntries(byHelmet.headers));
    expect(computed.headers.has('content-security-policy')).toBe(true);
    expect(computed.headers.has('x-powered-by')).toBe(false);
  });
});
