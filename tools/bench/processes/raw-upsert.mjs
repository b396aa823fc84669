// The physical limit of the ingest bench, in a process of its own: the same 500-item bulks written by the
// fastest plain statement, `INSERT … SELECT FROM unnest($2::text[], …) ON CONFLICT DO UPDATE … RETURNING`,
// with `pg` alone, over `clients` concurrent connections. Env: DATABASE_URL, TENANT_ID.
// Requests: { cmd: 'run', prefix, batches, clients, size } → { total, seconds, perSecond } (items/s).
import pg from 'pg';

const tenantId = process.env.TENANT_ID;
let pool;

const item = (sku) => ({
  sku,
  name: `Bench item ${sku}`,
  baseUomCode: 'EA',
  category: 'bench',
  tracking: 'lot',
  weightKg: 1.25,
});

/**
 * One statement per batch, as a DBA would write it: each column one array parameter, joined by `unnest`
 * (seven parameters whatever the batch size; the statement text is the same every time, so PostgreSQL's
 * parse and plan are the cheap part).
 */
async function upsert(rows) {
  await pool.query(
    `INSERT INTO items (tenant_id, sku, name, base_uom_code, category, tracking, weight_kg)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[])
     ON CONFLICT (tenant_id, sku) DO UPDATE SET name = EXCLUDED.name, base_uom_code = EXCLUDED.base_uom_code,
       category = EXCLUDED.category, tracking = EXCLUDED.tracking, weight_kg = EXCLUDED.weight_kg, updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    [
      tenantId,
      rows.map((row) => row.sku),
      rows.map((row) => row.name),
      rows.map((row) => row.baseUomCode),
      rows.map((row) => row.category),
      rows.map((row) => row.tracking),
      rows.map((row) => row.weightKg),
    ],
  );
}

/** `batches` statements of `size` fresh items (built here, as the load generator builds its bodies) over `clients` loops. */
async function run({ prefix, batches, clients, size }) {
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: clients });
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let n = next++; n < batches; n = next++)
        await upsert(Array.from({ length: size }, (_, i) => item(`${prefix}-${n}-${i}`)));
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { total: batches * size, seconds, perSecond: (batches * size) / seconds };
}

process.on('message', async ({ id, cmd, ...args }) => {
  try {
    if (cmd !== 'run') throw new Error(`unknown command ${cmd}`);
    process.send({ id, result: await run(args) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on('SIGTERM', () => void (pool?.end() ?? Promise.resolve()).finally(() => process.exit(0)));
process.send({ ready: true });
