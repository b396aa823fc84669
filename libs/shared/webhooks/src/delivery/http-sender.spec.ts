import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookSender, RESPONSE_SNIPPET_BYTES } from './http-sender.js';

/** A local subscriber whose answer each test chooses; it records what it was sent. */
function subscriber(answer: (res: import('node:http').ServerResponse) => void) {
  const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      answer(res);
    });
  });
  return {
    received,
    async url() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    closeAll: () => server.closeAllConnections(),
  };
}

const options = { timeoutMs: 10_000, allowPrivate: true };
const sender = createWebhookSender(options);

describe('the webhook sender', () => {
  it('when the subscriber answers, the status, headers and the first 1 KB are returned and the body and headers arrived as sent', async () => {
    const target = subscriber((res) => res.writeHead(200, { 'x-answer': 'yes' }).end('a'.repeat(3000)));
    try {
      const result = await sender.post(await target.url(), '{"id":"é"}', { 'webhook-id': 'msg_1' });

      expect(result.statusCode).toBe(200);
      expect(result.headers['x-answer']).toBe('yes');
      expect(result.snippet).toBe('a'.repeat(RESPONSE_SNIPPET_BYTES));
      expect(target.received[0]).toMatchObject({
        body: '{"id":"é"}',
        headers: { 'webhook-id': 'msg_1', 'content-type': 'application/json', 'content-length': '11' },
      });
    } finally {
      await target.close();
    }
  });

  it('when the subscriber redirects or answers 5xx, that answer is returned as it is (no redirect followed, nothing thrown)', async () => {
    const redirect = subscriber((res) => res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end());
    const broken = subscriber((res) => res.writeHead(503, { 'retry-after': '7' }).end('down'));
    try {
      const moved = await sender.post(await redirect.url(), '{}', {});
      const down = await sender.post(await broken.url(), '{}', {});

      expect(moved.statusCode).toBe(302);
      expect(redirect.received).toHaveLength(1);
      expect(down).toMatchObject({ statusCode: 503, snippet: 'down', headers: { 'retry-after': '7' } });
    } finally {
      await redirect.close();
      await broken.close();
    }
  });

  it('when the answer is over 64 KB, it is not kept and the attempt still counts by its status', async () => {
    const huge = subscriber((res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(200 * 1024, 'x'));
    });
    try {
      const result = await sender.post(await huge.url(), '{}', {});

      expect(result).toMatchObject({ statusCode: 200, snippet: '(answer over 64 KB, not kept)' });
    } finally {
      await huge.close();
    }
  });

  it('when the subscriber does not answer within the timeout, the attempt fails as a timeout', async () => {
    const silent = subscriber(() => undefined);
    try {
      await expect(
        createWebhookSender({ ...options, timeoutMs: 200 }).post(await silent.url(), '{}', {}),
      ).rejects.toMatchObject({
        name: 'TimeoutError',
        code: 'ETIMEDOUT',
      });
      expect(silent.received).toHaveLength(1);
    } finally {
      silent.closeAll();
      await silent.close();
    }
  });

  it('when nothing listens, the attempt fails with the connection error', async () => {
    await expect(sender.post('http://127.0.0.1:1/hook', '{}', {})).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('when private addresses are not allowed, a loopback URL is refused before connecting', async () => {
    const target = subscriber((res) => res.writeHead(204).end());
    try {
      const url = (await target.url()).replace('127.0.0.1', 'localhost');
      await expect(createWebhookSender({ ...options, allowPrivate: false }).post(url, '{}', {})).rejects.toMatchObject({
        code: 'EBLOCKEDADDRESS',
      });
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });
});
