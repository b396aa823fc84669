import type { IncomingHttpHeaders } from 'node:http';
import got from 'got';
import { guardedLookup } from './url-guard.js';

/** How much of a subscriber's answer is kept (and read at all): the first 1 KB. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export interface SendResult {
  statusCode: number;
  headers: IncomingHttpHeaders;
  snippet: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/**
 * One POST attempt with got: a per-attempt timeout, no redirects, got's own retry off (BullMQ owns
 * retries), every status code returned rather than thrown, and at most 1 KB of the answer read (the
 * rest is dropped by closing the stream, so a subscriber cannot make the worker buffer megabytes).
 * Unless private URLs are allowed, every address DNS gives is checked before connecting.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const stream = got.stream.post(url, {
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'wms-webhooks/1', ...headers },
      timeout: { request: options.timeoutMs },
      followRedirect: false,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: false,
      ...(options.allowPrivate ? {} : { dnsLookup: guardedLookup as never }),
    });
    let response: { statusCode: number; headers: IncomingHttpHeaders } | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = () => {
      if (settled || !response) return;
      settled = true;
      resolve({
        statusCode: response.statusCode,
        headers: response.headers,
        snippet: Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
      });
    };
    stream.on('response', (incoming: { statusCode: number; headers: IncomingHttpHeaders }) => {
      response = { statusCode: incoming.statusCode, headers: incoming.headers };
    });
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_SNIPPET_BYTES) {
        finish();
        stream.destroy();
      }
    });
    stream.on('end', finish);
    stream.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}
