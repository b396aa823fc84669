// The event source of the webhooks bench, in a process of its own: appends stock.adjusted events to the
// outbox as committed operations leave them (one statement per tick, with the append notification) and
// reports each event's commit time (wall clock, comparable across processes).
// Env: DATABASE_URL, TENANT_ID. Requests: { cmd: 'append', count } → number appended;
// { cmd: 'stream', rate, seconds, tickMs } → [[id, committedAt], ...].
import pg from 'pg';

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
const tenantId = process.env.TENANT_ID;
const wallNow = () => performance.timeOrigin + performance.now();

async function append(count) {
  if (count <= 0) return [];
  const { rows } = await client.query({
    name: 'bench-append',
    text: `WITH inserted AS (
       INSERT INTO events (tenant_id, event, data)
       SELECT $1::uuid, 'stock.adjusted', jsonb_build_object('warehouseCode', 'MAIN', 'locationCode', 'L-1', 'sku', 'SKU-' || n,
                'lotNo', null, 'qtyDelta', 1, 'qtyOnHand', n, 'reason', 'bench', 'tenantId', $1::uuid)
         FROM generate_series(1, $2::int) AS n
       RETURNING id)
     SELECT id, pg_notify('wms_events', '') IS NULL AS notified FROM inserted`,
    values: [tenantId, count],
  });
  const at = wallNow();
  return rows.map((row) => [row.id, at]);
}

/** Appends at `rate` per second for `seconds`, a small transaction every tick. */
async function stream({ rate, seconds, tickMs = 20 }) {
  const committed = [];
  const started = performance.now();
  const ticks = Math.round((seconds * 1000) / tickMs);
  let sent = 0;
  for (let tick = 1; tick <= ticks; tick += 1) {
    const due = Math.round((rate * tick * tickMs) / 1000);
    committed.push(...(await append(due - sent)));
    sent = due;
    const wait = started + tick * tickMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return committed;
}

const commands = {
  append: async ({ count }) => {
    // Large backlogs in statements of 5,000, so one statement never holds the whole backlog's rows.
    let done = 0;
    while (done < count) done += (await append(Math.min(5_000, count - done))).length;
    return done;
  },
  stream,
};

process.on('message', async ({ id, cmd, ...args }) => {
  try {
    process.send({ id, result: await commands[cmd](args) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on('SIGTERM', () => void client.end().finally(() => process.exit(0)));
await client.connect();
process.send({ ready: true });
