import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createApiKey, createTestContext, type TestContext } from '@wms/testing';
import { IdempotencyService } from './idempotency.service.js';
import { requestFingerprint } from './request-fingerprint.js';

const URL = '/api/v1/integration/v1/items';
const BODY = '{"sku":"A","name":"Mug","baseUomCode":"EA"}';

/** A request as the gateway sees it: its bytes and the body parsed from them. */
const meaning = (bytes: string) => ({ method: 'POST', url: URL, bytes, json: { value: JSON.parse(bytes) as unknown } });

/** The fingerprint records stored before the tagged form hold: a SHA-256 of method, URL and body bytes. */
const firstForm = (bytes: string) => createHash('sha256').update(`POST ${URL}\n`).update(bytes).digest('hex');

// Records written before the fingerprint carried its version tag are still live for a TTL after an upgrade.
describe('Idempotency-Key records of the first fingerprint form, after an upgrade', () => {
  let ctx: TestContext;
  let service: IdempotencyService;
  let owner: { apiKeyId: string };

  beforeAll(async () => {
    ctx = await createTestContext('idempotency-upgrade');
    service = new IdempotencyService(ctx.runtime.db, { idempotencyTtlSeconds: 3_600, bulkSyncTimeoutMs: 30_000 });
    owner = { apiKeyId: (await createApiKey(ctx)).id };
  });
  afterAll(() => ctx.close());

  async function storeFirstForm(key: string, state: 'completed' | 'in_progress'): Promise<void> {
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO idempotency_records
         (api_key_id, idempotency_key, fingerprint, state, claim_id, token, lease_until, expires_at, response_status, response_body)
       VALUES ($1, $2, $3, $4, gen_random_uuid(), gen_random_uuid(), now() - interval '1 second', now() + interval '1 hour',
               CASE WHEN $4 = 'completed' THEN 200 END, CASE WHEN $4 = 'completed' THEN '{"first":true}' END)`,
      { bind: [owner.apiKeyId, key, firstForm(BODY), state], type: QueryTypes.INSERT },
    );
  }
  const storedFingerprint = async (key: string) =>
    (
      await ctx.runtime.db.sequelize.query<{ fingerprint: string }>(
        'SELECT fingerprint FROM idempotency_records WHERE api_key_id = $1 AND idempotency_key = $2',
        { bind: [owner.apiKeyId, key], type: QueryTypes.SELECT },
      )
    )[0]!.fingerprint;

  it('when a retry sends the same bytes, the answer stored before the upgrade is replayed', async () => {
    await storeFirstForm('before-1', 'completed');

    const outcome = await service.claim(owner, 'before-1', requestFingerprint(meaning(BODY)));

    expect(outcome).toEqual({ kind: 'replay', status: 200, body: '{"first":true}' });
  });

  it('when other bytes come with the key, it is a mismatch that cannot name its part', async () => {
    await storeFirstForm('before-2', 'completed');

    const outcome = await service.claim(owner, 'before-2', requestFingerprint(meaning(BODY.replace('Mug', 'Cup'))));

    expect(outcome).toEqual({ kind: 'mismatch', differs: null });
  });

  it('when its request was abandoned, a retry of it takes the claim over and the record gets the tagged form', async () => {
    await storeFirstForm('before-3', 'in_progress');
    const fingerprint = requestFingerprint(meaning(BODY));

    const outcome = await service.claim(owner, 'before-3', fingerprint);

    expect(outcome.kind).toBe('claimed');
    expect(await storedFingerprint('before-3')).toBe(fingerprint.value);
  });
});
