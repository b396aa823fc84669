import type { Sequelize } from 'sequelize';
import { databaseUrl, uniqueDatabaseName } from '@wms/testing';
import { createSequelize, dropDatabase, ensureDatabase, runMigrations } from '@wms/platform';
import { migrations } from './migrations.js';

const ROWS = 20_000;

describe('migrating the request log to its partitioned form', () => {
  let url: string;
  let sequelize: Sequelize;

  const query = async <Row>(sql: string) => {
    const [rows] = (await sequelize.query(sql)) as [Row[], unknown];
    return rows;
  };

  beforeAll(async () => {
    url = databaseUrl(uniqueDatabaseName('request-log-migration'));
    await ensureDatabase(url);
    sequelize = createSequelize({ databaseUrl: url, databasePoolMax: 2 });
    const before = migrations.findIndex((migration) => migration.name === '0022-request-log-without-key-check');
    await runMigrations(sequelize, url, undefined, migrations.slice(0, before + 1));
  });
  afterAll(async () => {
    await sequelize.close();
    await dropDatabase(url);
  });

  it('when a database of the previous schema has records, every one is copied to its day and counted in the rollups', async () => {
    // Arrange: records over ten days from three keys, with full paths, odd addresses and origins.
    await sequelize.query(`
      INSERT INTO api_key_request_logs (api_key_id, endpoint, method, ip, origin, status_code, response_time_ms, created_at)
      SELECT (ARRAY['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002',
                    '00000000-0000-4000-8000-000000000003'])[1 + i % 3]::uuid,
             (ARRAY['/api/v1/integration/v1/items', '/api/v1/integration/v1/orders/SO-' || i,
                    '/api/v1/integration/v1/orders/SO-' || i || '/cancel', '/api/v1/integration/v1/asn/bulk',
                    '/api/v1/integration/v1/stock/', '/api/v1/integration/v1/%00weird/' || i])[1 + i % 6],
             (ARRAY['GET', 'POST'])[1 + i % 2],
             (ARRAY['192.0.2.7', '2001:db8::5', NULL, 'not-an-address'])[1 + i % 4],
             CASE WHEN i % 5 = 0 THEN 'https://erp.example.com' END,
             (ARRAY[200, 201, 404, 500])[1 + i % 4],
             (i % 997) / 7.0,
             now() - (i * interval '43 seconds')
        FROM generate_series(1, ${ROWS}) AS i`);
    const expected = await query<{ key: string; hour: string; requests: number; errors: number; sum: number }>(`
      SELECT api_key_id AS key, date_trunc('hour', created_at, 'UTC')::text AS hour, count(*)::int AS requests,
             count(*) FILTER (WHERE status_code >= 400)::int AS errors,
             sum(round(response_time_ms * 1000))::float8 AS sum
        FROM api_key_request_logs GROUP BY 1, 2 ORDER BY 1, 2`);

    // Act
    const applied = await runMigrations(sequelize, url, undefined, migrations);

    // Assert
    expect(applied).toContain('0035-partitioned-request-log');
    const [{ n }] = await query<{ n: number }>('SELECT count(*)::int AS n FROM api_key_request_logs');
    expect(n).toBe(ROWS);
    const misplaced = await query<{ n: number }>(`
      SELECT count(*)::int AS n FROM api_key_request_logs
       WHERE tableoid::regclass::text <> 'api_key_request_logs_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD')`);
    expect(misplaced[0]!.n).toBe(0);
    const rollups = await query<{ key: string; hour: string; requests: number; errors: number; sum: number }>(`
      SELECT api_key_id AS key, hour::text AS hour, requests, errors, response_time_sum_us::float8 AS sum
        FROM api_key_request_rollups ORDER BY 1, 2`);
    expect(rollups).toEqual(expected);
    const routes = await query<{ route: string }>('SELECT DISTINCT route FROM api_request_endpoints ORDER BY route');
    expect(routes.map((row) => row.route)).toEqual([
      '/api/v1/integration/v1/*',
      '/api/v1/integration/v1/asn/bulk',
      '/api/v1/integration/v1/items',
      '/api/v1/integration/v1/orders/:orderNo',
      '/api/v1/integration/v1/orders/:orderNo/cancel',
      '/api/v1/integration/v1/stock',
    ]);
    const addresses = await query<{ ip: string | null; n: number }>(
      'SELECT host(ip) AS ip, count(*)::int AS n FROM api_key_request_logs GROUP BY 1 ORDER BY 1 NULLS LAST',
    );
    expect(addresses).toEqual([
      { ip: '192.0.2.7', n: ROWS / 4 },
      { ip: '2001:db8::5', n: ROWS / 4 },
      { ip: null, n: ROWS / 2 },
    ]);
  });
});
