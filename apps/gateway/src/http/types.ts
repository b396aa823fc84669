declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** UUID v4 of this request; also in every answer body and the X-Request-Id header. */
      requestId: string;
      /** The trace id of this request (its span's, or a caller's `traceparent`'s); travels with the jobs and events it causes. */
      traceId?: string;
      /** The body's bytes as received (the JSON parser keeps them), for the idempotency fingerprint. */
      rawBody?: Buffer;
      /** The client address under TRUST_PROXY, as the API-key guard worked it out for the key's checks and log. */
      clientIp?: string;
    }
  }
}

export {};
