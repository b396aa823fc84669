// The webhook worker's HTTP client alone, in a process of its own: `count` signed-size deliveries POSTed to
// the receiver, `concurrency` at a time, through the worker's sender (`got`, made once) or through a plain
// `node:http` client of the same contract (keep-alive agent, every status returned, at most 64 KB of the
// answer read, a timeout per attempt). Answers the deliveries/s and this process's CPU ms per delivery.
// Requests from the parent: { cmd: 'run', client: 'got' | 'node', url, count, concurrency }.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createWebhookSender } from '../../../libs/shared/webhooks/dist/delivery/http-sender.js';

const TIMEOUT_MS = 10_000;
const READ_LIMIT = 64 * 1024;
const SNIPPET = 1024;

const got = createWebhookSender({ timeoutMs: TIMEOUT_MS, allowPrivate: true });

const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000, maxFreeSockets: 256, scheduling: 'lifo' });
const plain = {
  post(url, body, headers) {
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'wms-webhooks/1', ...headers },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
        (response) => {
          const kept = [];
          let read = 0;
          response.on('data', (chunk) => {
            read += chunk.length;
            if (read > READ_LIMIT) {
              response.destroy();
              resolve({ statusCode: response.statusCode, headers: response.headers, snippet: '' });
            } else if (read <= SNIPPET) kept.push(chunk);
          });
          response.on('end', () =>
            resolve({
              statusCode: response.statusCode,
              headers: response.headers,
              snippet: Buffer.concat(kept).subarray(0, SNIPPET).toString('utf8'),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  },
};

const body = JSON.stringify({
  type: 'stock.adjusted',
  timestamp: new Date().toISOString(),
  data: { tenantId: randomUUID(), warehouseCode: 'MAIN', sku: 'BENCH-1', qtyDelta: 5, reason: 'bench' },
});

async function run({ client, url, count, concurrency }) {
  const sender = client === 'got' ? got : plain;
  let next = 0;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const lane = async () => {
    while (next < count) {
      next += 1;
      const result = await sender.post(url, body, {
        'webhook-id': randomUUID(),
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${'x'.repeat(44)}`,
      });
      if (result.statusCode !== 204) throw new Error(`the receiver answered ${result.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / seconds, cpuMsPerDelivery: (used.user + used.system) / 1000 / count };
}

process.on('message', ({ id, cmd, ...args }) => {
  if (cmd !== 'run') return;
  run(args).then(
    (result) => process.send({ id, result }),
    (error) => process.send({ id, error: String(error) }),
  );
});
process.send({ ready: true });
