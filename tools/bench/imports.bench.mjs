// A file import end to end (client → gateway streaming the file into PostgreSQL → ingest worker writing it
// chunk by chunk → job completed) against the physical limit here: the same file COPYed into a temporary
// table and merged into items by one INSERT … ON CONFLICT with `pg` alone (processes/raw-import.mjs). The
// gateway, the ingest worker and the raw side are processes of their own; each side imports its own file of
// fresh items (BENCH_IMPORT_ROWS, 1,000,000 by default), once. Also the gateway's peak RSS during the upload
// against its RSS at rest: the file is streamed, never held.
import { once } from 'node:events';
import { createWriteStream, createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { benchApiKey, freePort, peakRssMb, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);

/** Current resident set size of a process (VmRSS), in MB. */
function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function writeFile(path, prefix) {
  const out = createWriteStream(path);
  for (let index = 0; index < ROWS; index += 1) {
    const line = `${JSON.stringify({
      sku: `${prefix}-${index}`,
      name: `Bench item ${prefix}-${index}`,
      baseUomCode: 'EA',
      category: 'bench',
      tracking: 'lot',
      weightKg: 1.25,
    })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Streams the file to POST /imports; resolves with the answer's JSON. */
function upload(url, key, path) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/imports?entity=items`,
      {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson', 'content-length': statSync(path).size },
      },
      async (res) => {
        let body = '';
        for await (const chunk of res) body += chunk;
        if (res.statusCode !== 202) reject(new Error(`upload answered ${res.statusCode}: ${body}`));
        else resolve(JSON.parse(body));
      },
    );
    req.on('error', reject);
    pipeline(createReadStream(path), req).catch(reject);
  });
}

async function finished(url, key, jobId) {
  for (;;) {
    const job = (await (await fetch(`${url}/jobs/${jobId}`, { headers: { 'x-api-key': key } })).json()).data;
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export default async function importsBench() {
  const port = freePort();
  const bench = await prepareBenchEnv('imports', { LOG_LEVEL: 'info' });
  const runtime = openRuntime(bench.config, { name: 'bench-imports', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const logFile = join(tmpdir(), `wms-bench-imports-${process.pid}.log`);
  const files = {
    service: join(tmpdir(), `wms-bench-imports-${process.pid}-a.ndjson`),
    raw: join(tmpdir(), `wms-bench-imports-${process.pid}-b.ndjson`),
  };
  const started = [];
  try {
    const { tenant, key } = await benchApiKey(services, 'bench-imports');
    await writeFile(files.service, 'IMPA');
    await writeFile(files.raw, 'IMPB');
    const gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(gateway);
    const worker = await startApp('ingest-worker', bench.env, { logFile });
    started.push(worker);
    const raw = await startHelper('raw-import', { ...bench.env, TENANT_ID: tenant.id });
    started.push(raw);
    const url = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const sizeMb = statSync(files.service).size / 1024 / 1024;

    // The raw side first, then the service: each on a database that holds the other's rows or not, the
    // same table either way.
    const rawRun = await raw.call({ cmd: 'run', file: files.raw });

    const idleRss = rssMb(gateway.pid);
    const t0 = performance.now();
    const accepted = await upload(url, key.rawKey, files.service);
    const uploadSeconds = (performance.now() - t0) / 1000;
    const gatewayPeak = peakRssMb(gateway.pid);
    const job = await finished(url, key.rawKey, accepted.jobId);
    const serviceSeconds = (performance.now() - t0) / 1000;
    if (job.state !== 'completed' || job.created !== ROWS || job.failed !== 0)
      throw new Error(`the import ended ${JSON.stringify(job)}`);
    if (rawRun.total !== ROWS) throw new Error(`the raw side wrote ${rawRun.total} rows`);

    const perSecond = ROWS / serviceSeconds;
    console.log(`file: ${ROWS.toLocaleString('en')} items, ${sizeMb.toFixed(0)} MB of NDJSON`);
    console.log(
      `service: ${serviceSeconds.toFixed(1)} s upload to completed (upload ${uploadSeconds.toFixed(1)} s), ${Math.round(perSecond).toLocaleString('en')} items/s`,
    );
    console.log(
      `raw pg (COPY + one merge): ${rawRun.seconds.toFixed(1)} s, ${Math.round(rawRun.perSecond).toLocaleString('en')} items/s`,
    );
    console.log(`ratio service / raw: ${(perSecond / rawRun.perSecond).toFixed(2)} (target ≥ 0.70)`);
    console.log(
      `gateway RSS: idle ${idleRss.toFixed(0)} MB, peak during the upload ${gatewayPeak.toFixed(0)} MB (+${(gatewayPeak - idleRss).toFixed(0)} MB; target ≤ +100 MB)`,
    );
  } finally {
    for (const process of started.reverse()) await process.stop();
    for (const file of Object.values(files)) rmSync(file, { force: true });
    await runtime.close();
    await bench.cleanup();
  }
}
