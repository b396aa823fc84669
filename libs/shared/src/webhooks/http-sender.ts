import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
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

/** A whole attempt (connect, send, answer) took longer than the timeout. */
class AttemptTimeoutError extends Error {
  override name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
}

type Agents = { http: http.Agent; https: https.Agent };
const agentsByPolicy = new Map<boolean, Agents>();

/**
 * Keep-alive agents, one pair per address policy: a subscriber's connections are reused from attempt to
 * attempt (no TCP or TLS handshake per delivery). Every new connection's address is checked by the
 * guarded lookup unless private URLs are allowed; idle sockets close after 30 s.
 */
function agentsFor(allowPrivate: boolean): Agents {
  let agents = agentsByPolicy.get(allowPrivate);
  if (!agents) {
    const options = {
      keepAlive: true,
      keepAliveMsecs: 1_000,
      maxFreeSockets: 256,
      scheduling: 'lifo' as const,
      timeout: 30_000,
      ...(allowPrivate ? {} : { lookup: guardedLookup as never }),
    };
    agents = { http: new http.Agent(options), https: new https.Agent(options) };
    agentsByPolicy.set(allowPrivate, agents);
  }
  return agents;
}

/**
 * One POST attempt with node:http over keep-alive agents: a timeout for the whole attempt, no redirects
 * followed, no decompression, no retry here (the queue owns retries), every status code returned rather
 * than thrown. At most 64 KB of the answer is read (a subscriber cannot make the worker buffer megabytes)
 * and the first 1 KB kept. Unless private URLs are allowed, every address DNS gives is checked before
 * connecting.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  return new Promise<SendResult>((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      return reject(error as Error);
    }
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') return reject(new Error(`unsupported protocol ${target.protocol}`));
    const agents = agentsFor(options.allowPrivate);
    const request = (secure ? https : http).request(target, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'wms-webhooks/1',
        'content-length': String(Buffer.byteLength(body, 'utf8')),
        ...headers,
      },
    });
    let settled = false;
    const finish = (error: Error | null, result?: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result!);
    };
    const timer = setTimeout(
      () => request.destroy(new AttemptTimeoutError(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    request.on('error', (error) => finish(error));
    request.on('response', (response: IncomingMessage) => readAnswer(response, request, finish));
    // A string body goes out with the head in one write (a Buffer would be a second chunk of a writev).
    request.end(body, 'utf8');
  });
}

/** Reads at most 64 KB of the answer, keeping the first 1 KB. */
function readAnswer(
  response: IncomingMessage,
  request: http.ClientRequest,
  finish: (error: Error | null, result?: SendResult) => void,
): void {
  const head = { statusCode: response.statusCode ?? 0, headers: response.headers };
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let readBytes = 0;
  response.on('data', (chunk: Buffer) => {
    readBytes += chunk.length;
    if (readBytes > RESPONSE_READ_LIMIT_BYTES) {
      finish(null, { ...head, snippet: '(answer over 64 KB, not kept)' });
      request.destroy();
      return;
    }
    if (keptBytes < RESPONSE_SNIPPET_BYTES) {
      kept.push(chunk);
      keptBytes += chunk.length;
    }
  });
  response.on('end', () =>
    finish(null, {
      ...head,
      snippet: Buffer.concat(kept).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
    }),
  );
  response.on('error', (error) => finish(error));
  response.on('aborted', () => finish(new Error('answer aborted')));
}
