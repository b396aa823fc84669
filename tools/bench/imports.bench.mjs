// A file import end to end (client → gateway streaming the file into PostgreSQL → ingest worker writing it
// chunk by chunk → job completed) against the physical limit here: the same file COPYed into a temporary
// table and merged into items by one INSERT … ON CONFLICT with `pg` alone (processes/raw-import.mjs). The
// gateway, the ingest worker and the raw side are processes of their own; each side imports the same file of
// fresh items (BENCH_IMPORT_ROWS, 1,000,000 by default) into an emptied items table, BENCH_ROUNDS rounds in
// alternating order. Also the gateway's peak RSS over the uploads against its RSS at rest: the file is
// streamed, never held.
import { once } from 'node:events';
import { createWriteStream, createReadStream, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { postgresSampler } from './backends.mjs';
import {
  ROUNDS,
  benchApiKey,
  freePort,
  measureCpu,
  median,
  peakRssMb,
  resetPeakRss,
  prepareBenchEnv,
  spread,
  startApp,
  startHelper,
} from './lib.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
/** The worker's stages of a chunk (wms_import_stage_seconds_total). */
const STAGES = ['read', 'parse', 'validate', 'write'];

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
  const file = join(tmpdir(), `wms-bench-imports-${process.pid}.ndjson`);
  const started = [];
  try {
    const { tenant, key } = await benchApiKey(services, 'bench-imports');
    // Another tenant's synchronous bulk calls while the import runs: how long one waits behind it.
    const other = await services.tenants.create({ code: 'BENCH-OTHER', name: 'Bench other tenant' });
    const otherKey = await services.apiKeys.create(
      { name: 'bench-imports-other', scopes: ['read', 'write'], tenantId: other.id },
      null,
    );
    await writeFile(file, 'IMP');
    const gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(gateway);
    const workerHealthPort = freePort();
    const worker = await startApp(
      'ingest-worker',
      { ...bench.env, WORKER_HEALTH_PORT: String(workerHealthPort) },
      { logFile },
    );
    started.push(worker);
    const raw = await startHelper('raw-import', { ...bench.env, TENANT_ID: tenant.id });
    started.push(raw);
    const url = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const sizeMb = statSync(file).size / 1024 / 1024;
    const idleRss = rssMb(gateway.pid);
    const postgres = await postgresSampler(bench.config.databaseUrl);
    // Each side imports the same file into an empty items table (nothing else references items here), in
    // alternating order, so neither writes into a table the other has grown.
    const emptyItems = () => runtime.db.sequelize.query('TRUNCATE items CASCADE');

    /** The worker's seconds by import stage so far (wms_import_stage_seconds_total). */
    const stageSeconds = async () => {
      const text = await (
        await fetch(`http://127.0.0.1:${workerHealthPort}/metrics`, {
          headers: { authorization: `Bearer ${bench.env.METRICS_TOKEN}` },
        })
      ).text();
      const seconds = {};
      for (const [, stage, value] of text.matchAll(
        /^wms_import_stage_seconds_total\{[^}]*stage="(\w+)"[^}]*\} (\S+)$/gm,
      ))
        seconds[stage] = (seconds[stage] ?? 0) + Number(value);
      return seconds;
    };
    const stageRounds = [];
    const peaks = [];
    const probes = [];
    /** Every second until `done`, a 10-item synchronous bulk call of the other tenant, timed; must answer 200. */
    const probeWhile = async (done) => {
      while (!done()) {
        const items = Array.from({ length: 10 }, (_unused, index) => ({
          sku: `OTHER-${probes.length}-${index}`,
          name: 'Other tenant item',
          baseUomCode: 'EA',
        }));
        const started = performance.now();
        const answer = await fetch(`${url}/items/bulk`, {
          method: 'POST',
          headers: { 'x-api-key': otherKey.rawKey, 'content-type': 'application/json' },
          body: JSON.stringify({ items }),
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`the other tenant's bulk call answered ${answer.status}`);
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    };
    const service = async () => {
      const stagesBefore = await stageSeconds();
      const idle = rssMb(gateway.pid);
      const fromIdle = resetPeakRss(gateway.pid);
      const t0 = performance.now();
      let uploadSeconds = 0;
      const {
        result: { result: job, postgres: postgresMs },
        cpu,
      } = await measureCpu({ gateway: gateway.pid, worker: worker.pid }, () =>
        postgres.measure(async () => {
          const accepted = await upload(url, key.rawKey, file);
          uploadSeconds = (performance.now() - t0) / 1000;
          peaks.push(peakRssMb(gateway.pid) - (fromIdle ? idle : idleRss));
          let running = true;
          const probing = probeWhile(() => !running);
          try {
            return await finished(url, key.rawKey, accepted.jobId);
          } finally {
            running = false;
            await probing;
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      if (job.state !== 'completed' || job.created !== ROWS || job.failed !== 0)
        throw new Error(`the import ended ${JSON.stringify(job)}`);
      const stagesAfter = await stageSeconds();
      const perMillion = (stage) => (((stagesAfter[stage] ?? 0) - (stagesBefore[stage] ?? 0)) * 1_000_000) / ROWS;
      stageRounds.push({
        upload: (uploadSeconds * 1_000_000) / ROWS,
        ...Object.fromEntries(STAGES.map((stage) => [stage, perMillion(stage)])),
        total: (seconds * 1_000_000) / ROWS,
      });
      const perThousand = (ms) => (ms / (ROWS / 1000)).toFixed(1);
      console.log(
        `  service: ${seconds.toFixed(1)} s upload to completed (upload ${uploadSeconds.toFixed(1)} s), ` +
          `${Math.round(ROWS / seconds).toLocaleString('en')} items/s; CPU per 1,000 items: gateway ` +
          `${perThousand(cpu.gateway)} ms, ingest worker ${perThousand(cpu.worker)} ms, PostgreSQL ${perThousand(postgresMs)} ms`,
      );
      return ROWS / seconds;
    };
    const rawSide = async () => {
      const run = await raw.call({ cmd: 'run', file });
      if (run.total !== ROWS) throw new Error(`the raw side wrote ${run.total} rows`);
      console.log(
        `  raw pg (COPY + one merge): ${run.seconds.toFixed(1)} s, ${Math.round(run.perSecond).toLocaleString('en')} items/s`,
      );
      return run.perSecond;
    };

    console.log(`file: ${ROWS.toLocaleString('en')} items, ${sizeMb.toFixed(0)} MB of NDJSON; ${ROUNDS} rounds`);
    const ratios = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      console.log(`round ${round + 1}:`);
      const sides = round % 2 === 0 ? [rawSide, service] : [service, rawSide];
      const rates = [];
      for (const side of sides) {
        await emptyItems();
        rates.push(await side());
      }
      const [servicePerSecond, rawPerSecond] = round % 2 === 0 ? [rates[1], rates[0]] : rates;
      ratios.push(servicePerSecond / rawPerSecond);
    }
    await postgres.close();
    console.log(`ratio service / raw: ${spread(ratios)} (median, min–max; target ≥ 0.70)`);
    const seconds = (values) =>
      `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
    console.log(
      `seconds per million rows by stage, median (min–max): ` +
        ['upload', ...STAGES, 'total']
          .map((stage) => `${stage} ${seconds(stageRounds.map((round) => round[stage]))}`)
          .join(', ') +
        ` (upload: the file streamed and staged through COPY; read, parse, validate, write: the worker's time` +
        ` summed over its chunks, some of them at once; total: upload to completed)`,
    );
    console.log(
      `another tenant's 10-item synchronous bulk call while the imports ran: ${probes.length} calls, median ` +
        `${median(probes).toFixed(0)} ms, slowest ${Math.max(...probes).toFixed(0)} ms (target: 200 within 1 s)`,
    );
    console.log(
      `gateway RSS: idle ${idleRss.toFixed(0)} MB before the first upload; peak during each upload above the RSS ` +
        `it started from: ${peaks.map((mb) => `+${mb.toFixed(0)}`).join(', ')} MB (target ≤ +100 MB)`,
    );
  } finally {
    for (const process of started.reverse()) await process.stop();
    rmSync(file, { force: true });
    await runtime.close();
    await bench.cleanup();
  }
}
