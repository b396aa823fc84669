import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import helmet from 'helmet';
import { API_SECURITY_HEADERS, securityHeaders } from './security-headers.js';

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

function answer(url: string) {
  const computed = recordingResponse();
  let passed = false;
  securityHeaders()({ url } as Request, computed as unknown as Response, () => (passed = true));
  return { passed, headers: computed.headers };
}

describe('the security headers', () => {
  it('of a page are the headers helmet() sets, with the same values, and X-Powered-By removed', () => {
    const byHelmet = recordingResponse();
    helmet()({} as IncomingMessage, byHelmet as unknown as ServerResponse, () => undefined);

    for (const url of ['/admin/', '/docs', '/admin/queues/', '/']) {
      const { passed, headers } = answer(url);
      expect(passed).toBe(true);
      expect(Object.fromEntries(headers)).toEqual(Object.fromEntries(byHelmet.headers));
      expect(headers.has('content-security-policy')).toBe(true);
      expect(headers.has('x-powered-by')).toBe(false);
    }
  });

  it('of a JSON answer under /api/ are the OWASP REST set: no caching, framing, loading or sniffing', () => {
    for (const url of ['/api/v1/integration/v1/stock?sku=A', '/api/v1/auth/login', '/API/v1/auth/login']) {
      const { passed, headers } = answer(url);
      expect(passed).toBe(true);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
      // Only the API set: none of helmet's headers for documents.
      expect([...headers.keys()].filter((name) => name !== 'x-powered-by').sort()).toEqual(
        API_SECURITY_HEADERS.map(([name]) => name.toLowerCase()).sort(),
      );
    }
  });
});
