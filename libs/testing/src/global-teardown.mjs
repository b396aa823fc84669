// Plain ESM for the same reason as global-setup.mjs.
import pg from 'pg';

const serverUrl = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Drops this run's template and any database a crashed test file of this run left behind. */
export default async function globalTeardown() {
  const runId = process.env.WMS_TEST_RUN_ID;
  if (!runId) return;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2', [
      `wms_tpl_${runId}`,
      `wms\\_t\\_${runId}\\_%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
