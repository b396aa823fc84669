// The physical limit of the imports bench, in a process of its own: the same NDJSON file written with `pg`
// alone, as directly as PostgreSQL allows: each line parsed and its fields streamed through COPY into a
// temporary table, then one INSERT … SELECT … ON CONFLICT DO UPDATE merge into items. Env: DATABASE_URL,
// TENANT_ID. Requests: { cmd: 'run', file } → { total, seconds, perSecond } (items/s).
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';

const tenantId = process.env.TENANT_ID;

const text = (value) =>
  value === undefined || value === null
    ? '\\N'
    : String(value).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]);

async function run({ file }) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const started = process.hrtime.bigint();
  try {
    await client.query('BEGIN');
    await client.query(`CREATE TEMP TABLE raw_items (sku text, name text, barcode text, base_uom_code text, category text,
      tracking text, shelf_life_days integer, weight_kg numeric) ON COMMIT DROP`);
    let total = 0;
    const rows = Transform.from(async function* () {
      let batch = '';
      for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
        if (!line.trim()) continue;
        const r = JSON.parse(line);
        total += 1;
        batch += `${[r.sku, r.name, r.barcode, r.baseUomCode, r.category, r.tracking, r.shelfLifeDays, r.weightKg].map(text).join('\t')}\n`;
        if (batch.length > 65_536) {
          yield batch;
          batch = '';
        }
      }
      if (batch) yield batch;
    });
    await pipeline(rows, client.query(copyStreams.from('COPY raw_items FROM STDIN')));
    await client.query(
      `INSERT INTO items AS t (tenant_id, sku, name, barcode, base_uom_code, category, tracking, shelf_life_days, weight_kg)
       SELECT $1::uuid, sku, name, barcode, base_uom_code, category, tracking, shelf_life_days, weight_kg FROM raw_items
       ON CONFLICT (tenant_id, sku) DO UPDATE SET name = EXCLUDED.name, barcode = EXCLUDED.barcode,
         base_uom_code = EXCLUDED.base_uom_code, category = EXCLUDED.category, tracking = EXCLUDED.tracking,
         shelf_life_days = EXCLUDED.shelf_life_days, weight_kg = EXCLUDED.weight_kg, updated_at = now()`,
      [tenantId],
    );
    await client.query('COMMIT');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { total, seconds, perSecond: total / seconds };
  } finally {
    await client.end();
  }
}

process.on('message', async ({ id, cmd, ...args }) => {
  try {
    if (cmd !== 'run') throw new Error(`unknown command ${cmd}`);
    process.send({ id, result: await run(args) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on('SIGTERM', () => process.exit(0));
process.send({ ready: true });
