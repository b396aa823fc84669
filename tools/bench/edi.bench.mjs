// EDI inbound against the bulk path: a 10,000-order 940 interchange sent once to `POST /edi` (answered 202 at
// once, read by the ingest worker's EDI engine) beside the same 10,000 orders sent as 100 calls of
// `POST /orders/bulk` (100 orders each, 4 connections, from the load generator, each answered when its job is
// done), in one run. Orders/s of each side is from the first byte sent to the last order written (for EDI: the
// interchange `accepted`); several rounds alternating the sides; median (min–max). The ingest worker's peak
// memory is read while it reads each interchange. The gateway, the ingest worker and the load generator are
// processes of their own; loopback only, bounded in orders.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { arrangeStock } from './documents.bench.mjs';
import {
  ROUNDS,
  benchApiKey,
  freePort,
  median,
  peakRssMb,
  prepareBenchEnv,
  resetPeakRss,
  startApp,
  startHelper,
} from './lib.mjs';

const ORDERS = Number(process.env.BENCH_EDI_ORDERS ?? 10_000);
const BULK = 100;
const CLIENTS = 4;
const PARTNER = { qualifier: 'ZZ', id: 'BENCHPARTNER', groupCode: 'BENCHGS' };
const US = { qualifier: 'ZZ', id: 'BENCHWMS', groupCode: 'WMSGS' };

export default async function ediBench() {
  const port = freePort();
  const bench = await prepareBenchEnv('edi', {
    BULK_SYNC_TIMEOUT_MS: '60000',
    INGEST_CONCURRENCY: '4',
    EDI_HTTP_WAIT_MS: '0',
    EDI_HTTP_MAX_BYTES: String(64 * 1024 * 1024),
    LOG_LEVEL: 'info',
  });
  const logFile = join(tmpdir(), `wms-bench-edi-${process.pid}.log`);
  const runtime = openRuntime(bench.config, { name: 'bench-edi', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const client = new pg.Client({ connectionString: bench.config.databaseUrl });
  await client.connect();
  const started = [];
  try {
    const { tenant, key } = await benchApiKey(services, 'edi bench');
    await arrangeStock(runtime, services, tenant.id);
    await client.query(
      `INSERT INTO edi_trading_partners (tenant_id, name, partner_qualifier, partner_interchange_id, our_qualifier,
                                         our_interchange_id, partner_group_code, our_group_code, warehouse_code, api_key_id)
       VALUES ($1, 'Bench partner', $2, $3, $4, $5, $6, $7, 'MAIN', $8)`,
      [tenant.id, PARTNER.qualifier, PARTNER.id, US.qualifier, US.id, PARTNER.groupCode, US.groupCode, key.id],
    );
    const gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(gateway);
    const worker = await startApp('ingest-worker', bench.env, { logFile });
    started.push(worker);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);
    const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };

    const bulkSide = async (prefix, orders) => {
      const calls = orders / BULK;
      const result = await loadgen.call({
        options: { url: `${base}/orders/bulk`, headers, connections: CLIENTS, amount: calls, timeout: 120 },
        body: { kind: 'orders', prefix, size: BULK },
        verify: `"created":${BULK},`,
      });
      if (result.non2xx || result.errors || result.timeouts || result.mismatches || result.total !== calls)
        throw new Error(`bulk side ${prefix}: ${JSON.stringify(result)}`);
      return { rate: orders / result.seconds };
    };

    let control = 0;
    const ediSide = async (prefix, orders) => {
      control += 1;
      const text = interchange(prefix, orders, control);
      resetPeakRss(worker.pid);
      const startedAt = process.hrtime.bigint();
      const response = await fetch(`${base}/edi`, {
        method: 'POST',
        headers: { 'x-api-key': key.rawKey, 'content-type': 'application/edi-x12' },
        body: text,
      });
      if (response.status !== 202 && response.status !== 200)
        throw new Error(`POST /edi answered ${response.status}: ${await response.text()}`);
      const id = response.headers.get('x-interchange-id') ?? (await response.json()).interchangeId;
      for (;;) {
        const { rows } = await client.query('SELECT state FROM edi_interchanges WHERE id = $1', [id]);
        const state = rows[0]?.state;
        if (state === 'accepted') break;
        if (state && !['received', 'processing'].includes(state))
          throw new Error(`interchange ${prefix} ended ${state}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      return { rate: orders / seconds, peakMb: peakRssMb(worker.pid), bytes: Buffer.byteLength(text) };
    };

    // Warm-up: JIT, pools, prepared plans on both paths.
    await bulkSide('warm-bulk', 1_000);
    await ediSide('warm-edi', 1_000);

    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      let bulk;
      let edi;
      if (round % 2 === 0) {
        bulk = await bulkSide(`bulk-${round}`, ORDERS);
        edi = await ediSide(`edi-${round}`, ORDERS);
      } else {
        edi = await ediSide(`edi-${round}`, ORDERS);
        bulk = await bulkSide(`bulk-${round}`, ORDERS);
      }
      rounds.push({ bulk, edi, ratio: edi.rate / bulk.rate });
    }
    const {
      rows: [written],
    } = await client.query(
      `SELECT count(*) FILTER (WHERE reference_no LIKE 'edi-%')::int AS edi,
              count(*) FILTER (WHERE reference_no LIKE 'bulk-%')::int AS bulk
         FROM sales_orders WHERE tenant_id = $1`,
      [tenant.id],
    );
    if (written.edi !== ROUNDS * ORDERS || written.bulk !== ROUNDS * ORDERS)
      throw new Error(`orders written: ${JSON.stringify(written)}, expected ${ROUNDS * ORDERS} each side`);

    const spread = (values, digits = 0) =>
      `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    console.log(
      `${rounds.length} rounds of ${ORDERS} orders per side (a ${(rounds[0].edi.bytes / 1024 / 1024).toFixed(1)} MB 940 interchange; ${ORDERS / BULK} bulk calls of ${BULK}, ${CLIENTS} connections), median (min–max):`,
    );
    console.log(`  POST /orders/bulk: ${spread(rounds.map((round) => round.bulk.rate))} orders/s`);
    console.log(`  POST /edi (940): ${spread(rounds.map((round) => round.edi.rate))} orders/s`);
    console.log(
      `  ratio EDI / bulk: ${spread(
        rounds.map((round) => round.ratio),
        2,
      )} (target >= 0.70)`,
    );
    console.log(
      `  ingest worker peak RSS while reading an interchange: ${spread(rounds.map((round) => round.edi.peakMb))} MB`,
    );
  } finally {
    for (const app of started.reverse()) await app.stop();
    await client.end();
    await runtime.close();
    await bench.cleanup();
  }
}

/** One interchange of one 940 group: `orders` sets, each one order of two lines, as the bulk side's orders. */
function interchange(prefix, orders, control) {
  const isa13 = String(control).padStart(9, '0');
  const pad = (value, width) => value.padEnd(width, ' ');
  const segments = [
    `ISA*00*${pad('', 10)}*00*${pad('', 10)}*${PARTNER.qualifier}*${pad(PARTNER.id, 15)}*${US.qualifier}*${pad(US.id, 15)}*261202*1200*U*00401*${isa13}*0*P*>`,
    `GS*OW*${PARTNER.groupCode}*${US.groupCode}*20261202*1200*${control}*X*004010`,
  ];
  const run = randomBytes(3).toString('hex');
  for (let index = 1; index <= orders; index += 1) {
    const st02 = String(index).padStart(4, '0').slice(-9);
    const body = [
      `W05*N*${prefix}-${run}-${index}*PO-${index}`,
      'N1*ST*Bench store*92*BENCH-CUST',
      'N1*BY*Bench customer*92*BENCH-CUST',
      'LX*1',
      'W01*2*EA**SK*BENCH-LOT',
      'LX*2',
      'W01*1*EA**SK*BENCH-PLAIN',
      'W76*3',
    ];
    segments.push(`ST*940*${st02}`, ...body, `SE*${body.length + 2}*${st02}`);
  }
  segments.push(`GE*${orders}*${control}`, `IEA*1*${isa13}`);
  return `${segments.join('~\n')}~\n`;
}
