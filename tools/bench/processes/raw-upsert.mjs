// The physical limit of the ingest bench, in a process of its own: the same 500-item bulks written by a
// plain multi-row `INSERT … ON CONFLICT DO UPDATE … RETURNING` with `pg` alone, over `clients` concurrent
// connections. Env: DATABASE_URL, TENANT_ID. Requests: { cmd: 'run', prefix, batches, clients, size } →
// { total, seconds, perSecond } (items/s).
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

async function upsert(rows) {
  const values = [];
  const params = [tenantId];
  for (const row of rows) {
    const at = params.length;
    values.push(`($1, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`);
    params.push(row.sku, row.name, row.baseUomCode, row.category, row.tracking, row.weightKg);
  }
  await pool.query(
    `INSERT INTO items (tenant_id, sku, name, base_uom_code, category, tracking, weight_kg) VALUES ${values.join(',')}
     ON CONFLICT (tenant_id, sku) DO UPDATE SET name = EXCLUDED.name, base_uom_code = EXCLUDED.base_uom_code,
       category = EXCLUDED.category, tracking = EXCLUDED.tracking, weight_kg = EXCLUDED.weight_kg, updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    params,
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
