import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import got, { type Got } from 'got';
import { guardedLookup } from '../subscriptions/index.js';

/** How much of a subscriber's answer is kept: the first 1 KB. */
export const RESPONSE_SNIPPET_BYTES = 1024;

/** An answer longer than this is cut off (the attempt still counts by its status code). */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

export interface SendResult {
  statusCode: number;
  headers: IncomingHttpHeaders;
  snippet: string;
}

export interface SenderOptions {
  /** The whole attempt (connect, send, answer) must be over within this. */
  timeoutMs: number;
  /** Whether subscriber URLs may reach private and loopback addresses (development, tests). */
  allowPrivate: boolean;
}

/** POSTs one webhook attempt; every status code is returned, only a failure to get an answer throws. */
export interface WebhookSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
}

const OVER_LIMIT_SNIPPET = '(answer over 64 KB, not kept)';

/**
 * The webhook HTTP client: one `got` instance, made once with everything that is the same for every
 * attempt, so a request adds only its URL, body and headers.
 * - Keep-alive agents: a subscriber's connections are reused from attempt to attempt (no TCP or TLS
 *   handshake per delivery); idle sockets close after 30 s.
 * - Unless private URLs are allowed, every address DNS gives is checked before connecting (the SSRF guard's
 *   lookup), so a name that changed to a private address since registration is refused.
 * - No retries (the queue owns them), no redirects followed, no decompression, every status returned.
 * - A timeout for the whole attempt; at most 64 KB of the answer is read and its first 1 KB kept.
 */
export function createWebhookSender(options: SenderOptions): WebhookSender {
  const agentOptions = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxFreeSockets: 256,
    scheduling: 'lifo' as const,
    timeout: 30_000,
  };
  const client: Got = got.extend({
    method: 'POST',
    agent: { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) },
    ...(options.allowPrivate ? {} : { dnsLookup: guardedLookup as LookupFunction }),
    headers: { 'content-type': 'application/json', 'user-agent': 'wms-webhooks/1' },
    timeout: { request: options.timeoutMs },
    retry: { limit: 0 },
    followRedirect: false,
    throwHttpErrors: false,
    decompress: false,
  });

  return {
    post(url, body, headers) {
      return new Promise<SendResult>((resolve, reject) => {
        // The stream interface, so the answer is read as it arrives and dropped past the limit, never buffered whole.
        const request = client.stream(url, { body, headers });
        let head: Omit<SendResult, 'snippet'> | undefined;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let readBytes = 0;
        let settled = false;
        const finish = (error: Error | null, result?: SendResult) => {
          if (settled) return;
          settled = true;
          if (error) reject(error);
          else resolve(result!);
        };
        request.on('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
          head = { statusCode: response.statusCode, headers: response.headers };
        });
        request.on('data', (chunk: Buffer) => {
          readBytes += chunk.length;
          if (readBytes > RESPONSE_READ_LIMIT_BYTES) {
            // A subscriber cannot make the worker buffer megabytes: past the limit the answer is dropped.
            finish(null, { ...head!, snippet: OVER_LIMIT_SNIPPET });
            request.destroy();
            return;
          }
          if (keptBytes < RESPONSE_SNIPPET_BYTES) {
            kept.push(chunk);
            keptBytes += chunk.length;
          }
        });
        request.on('end', () =>
          finish(null, {
            ...head!,
            snippet: Buffer.concat(kept).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
          }),
        );
        request.on('error', (error: Error) => finish(error));
      });
    },
  };
}
