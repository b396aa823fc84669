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

/** An answer longer than this is cut off (the attempt still counts by its status code). */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

/**
 * One POST attempt with got: a per-attempt timeout, no redirects, got's own retry off (BullMQ owns
 * retries), every status code returned rather than thrown. At most 64 KB of the answer is read (a
 * subscriber cannot make the worker buffer megabytes) and the first 1 KB kept. Unless private URLs are
 * allowed, every address DNS gives is checked before connecting.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const request = got.post(url, {
    body,
    headers: { 'content-type': 'application/json', 'user-agent': 'wms-webhooks/1', ...headers },
    timeout: { request: options.timeoutMs },
    followRedirect: false,
    retry: { limit: 0 },
    throwHttpErrors: false,
    decompress: false,
    responseType: 'buffer',
    ...(options.allowPrivate ? {} : { dnsLookup: guardedLookup as never }),
  });
  let head: { statusCode: number; headers: IncomingHttpHeaders } | undefined;
  request.on('response', (response: { statusCode: number; headers: IncomingHttpHeaders }) => {
    head = { statusCode: response.statusCode, headers: response.headers };
  });
  request.on('downloadProgress', (progress: { transferred: number }) => {
    if (progress.transferred > RESPONSE_READ_LIMIT_BYTES) request.cancel('response too large');
  });
  try {
    const response = await request;
    return {
      statusCode: response.statusCode,
      headers: response.headers,
      snippet: response.body.subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
    };
  } catch (error) {
    if ((error as Error).name === 'CancelError' && head) return { ...head, snippet: '(answer over 64 KB, not kept)' };
    throw error;
  }
}
