import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcrypt';
import {
  RecordingEdiOutbound,
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  insertInterchange,
  loginAs,
  request,
  answerValidator,
  sampleInterchange,
  type OpenApiDocument,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import type { EdiDocumentDetail } from '@wms/edi';

interface Refusal {
  code: string;
  message: string;
}
interface Document {
  id: string;
  direction: string;
  state: string;
  setCodes: string[];
  overdue: boolean;
  resentFrom: string | null;
  documents: Array<{ kind: string; ref: string }>;
  [key: string]: unknown;
}

/** An ed25519 key pair made by OpenSSH's own ssh-keygen, and the fingerprint it reports. */
function opensshKey(dir: string, name: string) {
  const file = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${name}@partner`, '-f', file]);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  return { publicKey: readFileSync(`${file}.pub`, 'utf8'), privateKey: readFileSync(file, 'utf8'), fingerprint };
}

describe('EDI trading partners: the SFTP account and the documents', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let outbound: RecordingEdiOutbound;
  let token: string;
  let tenantId: string;
  let partner: { id: string; tenantId: string; sftpUsername: string };
  const keys = mkdtempSync(join(tmpdir(), 'edi-keys-'));

  beforeAll(async () => {
    ctx = await createTestContext('edi-partners-documents');
    outbound = new RecordingEdiOutbound(ctx.runtime.db);
    gateway = await ctx.startGateway({}, { ediOutbound: outbound });
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx, 'EDID', 'WH1')).tenant.id;
    partner = (
      await request<typeof partner>(gateway.url, 'POST', '/api/v1/edi/partners', {
        token,
        body: {
          tenantId,
          name: 'Globex',
          partner: { qualifier: 'ZZ', interchangeId: 'GLOBEX', groupCode: 'GLOBEX' },
          us: { qualifier: 'ZZ', interchangeId: 'WAREHOUSE', groupCode: 'WAREHOUSE' },
          sftpUsername: 'globex',
          ackOverdueHours: 2,
        },
      })
    ).body;
  });
  afterAll(() => ctx.close());

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    request<T>(gateway.url, method, `/api/v1/edi/partners/${partner.id}${path}`, { token, body });
  const storedHash = async () => {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT sftp_password_hash AS hash FROM edi_trading_partners WHERE id = $1`,
      { bind: [partner.id] },
    )) as [Array<{ hash: string }>, unknown];
    return rows[0]!.hash;
  };
  const trail = async () =>
    (
      await request<Array<{ action: string; changes: Record<string, unknown> }>>(
        gateway.url,
        'GET',
        `/api/v1/audit-logs?entityType=edi_trading_partner&entityId=${partner.id}`,
        { token },
      )
    ).body.reverse();

  it('when a password is made it is in that answer only: its bcrypt hash is stored, no read or audit entry shows it', async () => {
    const first = await call<{ username: string; password: string }>('POST', '/sftp/password');
    const second = await call<{ username: string; password: string }>('POST', '/sftp/password');
    const read = await call('GET', '');
    const entries = await trail();

    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body.username).toBe('globex');
    expect(first.body.password).toHaveLength(32);
    expect(second.body.password).not.toBe(first.body.password);
    expect(await bcrypt.compare(second.body.password, await storedHash())).toBe(true);
    expect(await bcrypt.compare(first.body.password, await storedHash())).toBe(false);
    expect(read.body.sftpPasswordSet).toBe(true);
    expect(JSON.stringify(read.body)).not.toContain(second.body.password);
    expect(JSON.stringify(entries)).not.toContain(second.body.password);
    expect(
      entries.filter(({ action }) => action === 'edi_partner.sftp_password_set').map(({ changes }) => changes),
    ).toEqual([{ sftpPassword: { replaced: false } }, { sftpPassword: { replaced: true } }]);
  });

  it('when a public key is added it shows the fingerprint ssh-keygen reports; a private key or garbage is 400; removing it is 204', async () => {
    const key = opensshKey(keys, 'first');

    const added = await call<{ fingerprint: string; type: string; comment: string }>('POST', '/sftp/keys', {
      publicKey: key.publicKey,
    });
    const again = await call<Refusal>('POST', '/sftp/keys', { publicKey: key.publicKey });
    const secret = await call<Refusal>('POST', '/sftp/keys', { publicKey: key.privateKey });
    const garbage = await call<Refusal>('POST', '/sftp/keys', { publicKey: 'ssh-ed25519 not-a-key-at-all' });
    const read = await call<{ sftpPublicKeys: unknown[] }>('GET', '');
    const removed = await call('DELETE', `/sftp/keys/${encodeURIComponent(key.fingerprint)}`);
    const gone = await call<Refusal>('DELETE', `/sftp/keys/${encodeURIComponent(key.fingerprint)}`);

    expect(added.status).toBe(201);
    expect(added.body).toEqual({ fingerprint: key.fingerprint, type: 'ssh-ed25519', comment: 'first@partner' });
    expect([again.status, again.body.code]).toEqual([409, 'SFTP_KEY_EXISTS']);
    expect([secret.status, secret.body.code]).toEqual([400, 'SFTP_KEY_PRIVATE']);
    expect([garbage.status, garbage.body.code]).toEqual([400, 'SFTP_KEY_INVALID']);
    expect(read.body.sftpPublicKeys).toEqual([added.body]);
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
    expect((await trail()).map(({ action }) => action)).toEqual(
      expect.arrayContaining(['edi_partner.sftp_key_added', 'edi_partner.sftp_key_removed']),
    );
  });

  it('when documents are listed they come newest first, filtered by direction, state and set, a page at a time; an old unacknowledged one is overdue', async () => {
    const hours = (n: number) => new Date(Date.now() - n * 3_600_000);
    const order = await insertInterchange(
      ctx.runtime.db,
      partner,
      { direction: 'in', state: 'accepted', setCodes: ['940'] },
      hours(5),
    );
    const late = await insertInterchange(
      ctx.runtime.db,
      partner,
      { direction: 'out', state: 'sent', setCodes: ['945'] },
      hours(4),
    );
    const ack = await insertInterchange(
      ctx.runtime.db,
      partner,
      { direction: 'out', state: 'sent', setCodes: ['997'] },
      hours(3),
    );
    const fresh = await insertInterchange(
      ctx.runtime.db,
      partner,
      { direction: 'out', state: 'sent', setCodes: ['947'] },
      hours(1),
    );
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state, document_kind, document_ref)
       VALUES ($1, $2, $3, 'in', '940', 'OW', '42', '0001', 'accepted', 'order', 'ORD-1')`,
      { bind: [order.id, tenantId, partner.id] },
    );

    const all = await call<Document[]>('GET', '/documents');
    const outbound945 = await call<Document[]>('GET', '/documents?direction=out&setCode=945');
    const accepted = await call<Document[]>('GET', '/documents?state=accepted');
    const page = await request<Document[]>(gateway.url, 'GET', `/api/v1/edi/partners/${partner.id}/documents?limit=2`, {
      token,
    });
    const next = await request<Document[]>(
      gateway.url,
      'GET',
      `/api/v1/edi/partners/${partner.id}/documents?limit=2&cursor=${page.headers.get('x-next-cursor')}`,
      { token },
    );
    const bad = await call<Refusal>('GET', '/documents?state=lost&setCode=9');

    expect(all.body.map(({ id }) => id)).toEqual([fresh.id, ack.id, late.id, order.id]);
    expect(Object.fromEntries(all.body.map(({ id, overdue }) => [id, overdue]))).toEqual({
      [fresh.id]: false,
      [ack.id]: false,
      [late.id]: true,
      [order.id]: false,
    });
    expect(all.body.find(({ id }) => id === order.id)!.documents).toEqual([{ kind: 'order', ref: 'ORD-1' }]);
    expect(outbound945.body.map(({ id }) => id)).toEqual([late.id]);
    expect(accepted.body.map(({ id }) => id)).toEqual([order.id]);
    expect([...page.body, ...next.body].map(({ id }) => id)).toEqual([fresh.id, ack.id, late.id, order.id]);
    expect(bad.status).toBe(400);
  });

  it('when a document is opened it shows its text, its segments split with its own ISA separators, its sets and its acknowledgment', async () => {
    const text = sampleInterchange('940', '000000077', ['W05', 'N', 'ORD-7'])
      .replaceAll('*', '|')
      .replace('|>~', '|^~');
    const answer = await insertInterchange(ctx.runtime.db, partner, {
      direction: 'out',
      state: 'sent',
      setCodes: ['997'],
    });
    const received = await insertInterchange(ctx.runtime.db, partner, {
      direction: 'in',
      state: 'rejected',
      setCodes: ['940'],
      raw: Buffer.from(text),
    });
    await ctx.runtime.db.sequelize.query(`UPDATE edi_interchanges SET acknowledgment_id = $2 WHERE id = $1`, {
      bind: [received.id, answer.id],
    });
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state, errors)
       VALUES ($1, $2, $3, 'in', '940', 'OW', '77', '0001', 'rejected', $4::jsonb)`,
      {
        bind: [
          received.id,
          tenantId,
          partner.id,
          JSON.stringify([{ code: '7', message: 'unknown sku', segmentId: 'W01' }]),
        ],
      },
    );

    const detail = await call<EdiDocumentDetail>('GET', `/documents/${received.id}`);
    const other = await call<Refusal>('GET', `/documents/${crypto.randomUUID()}`);

    expect(detail.status).toBe(200);
    expect(detail.body.raw).toBe(text);
    expect(detail.body.separators).toEqual({ element: '|', component: '^', segment: '~' });
    expect(detail.body.segmentCount).toBe(7);
    expect(detail.body.segments[3]).toEqual({ position: 4, id: 'W05', elements: ['N', 'ORD-7'] });
    expect(detail.body.segments[0].elements[12]).toBe('000000077');
    expect(detail.body.sets).toEqual([
      expect.objectContaining({
        setCode: '940',
        setControl: '0001',
        state: 'rejected',
        errors: [{ code: '7', message: 'unknown sku', segmentId: 'W01' }],
      }),
    ]);
    expect(detail.body.acknowledgment).toMatchObject({ id: answer.id, setCodes: ['997'] });
    expect(other.status).toBe(404);
  });

  it('when an outbound document is resent it is a new interchange, audited and listed as a resend; an inbound one is 409', async () => {
    const shipped = await insertInterchange(ctx.runtime.db, partner, {
      direction: 'out',
      state: 'sent',
      setCodes: ['945'],
    });
    const order = await insertInterchange(ctx.runtime.db, partner, {
      direction: 'in',
      state: 'accepted',
      setCodes: ['940'],
    });

    const resent = await call<Document>('POST', `/documents/${shipped.id}/resend`);
    const refused = await call<Refusal>('POST', `/documents/${order.id}/resend`);
    const detail = await call<{ resends: Array<{ id: string }> }>('GET', `/documents/${shipped.id}`);

    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ resentFrom: shipped.id, direction: 'out', state: 'sent' });
    expect(outbound.resent.at(-1)!.interchangeId).toBe(shipped.id);
    expect([refused.status, refused.body.code]).toEqual([409, 'EDI_RESEND_INBOUND']);
    expect(detail.body.resends.map(({ id }) => id)).toEqual([resent.body.id]);
    expect((await trail()).filter(({ action }) => action === 'edi_partner.document_resent').at(-1)!.changes).toEqual({
      interchangeId: shipped.id,
      interchangeControl: shipped.interchangeControl,
      resentAs: resent.body.id,
    });
  });

  it('when an 846 is asked for it is written now; a partner not sent 846s, or disabled, is 409', async () => {
    const sent = await call<Document>('POST', '/inventory-advice');
    await call('PATCH', '', { outboundSets: ['945', '997'] });
    const notSent = await call<Refusal>('POST', '/inventory-advice');
    await call('POST', '/disable');
    const disabled = await call<Refusal>('POST', '/inventory-advice');

    expect([sent.status, sent.body.setCodes]).toEqual([202, ['846']]);
    expect([notSent.status, notSent.body.code]).toEqual([409, 'EDI_SET_NOT_SENT']);
    expect([disabled.status, disabled.body.code]).toEqual([409, 'EDI_SENDING_DISABLED']);
  });

  it('when every EDI route answers, the answer is what the admin OpenAPI document declares (ajv, strict)', async () => {
    const document = (await request(gateway.url, 'GET', '/api/v1/openapi.json')).body as unknown as OpenApiDocument;
    const check = answerValidator(document);
    const shipped = await insertInterchange(ctx.runtime.db, partner, {
      direction: 'out',
      state: 'sent',
      setCodes: ['945'],
    });
    const base = `/edi/partners/${partner.id}`;
    const problems: string[] = [];
    const called = new Set<string>();
    const call = async <T = Record<string, unknown>>(operation: string, path: string, body?: unknown) => {
      const method = operation.split(' ')[0]!;
      const response = await request<T>(gateway.url, method, `/api/v1${path}`, { token, body });
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      const answer = { method, path, status: response.status, mediaType, body: response.body as never };
      // A 204 has no body to check: its status must be declared all the same.
      const [, documented] = operation.split(' ') as [string, string];
      const declared = document.paths[documented]?.[method.toLowerCase()]?.responses?.['204'];
      if (response.status !== 204) problems.push(...check(operation, answer));
      else if (!declared) problems.push(`${operation}: 204 not declared`);
      called.add(operation);
      return response;
    };

    const created = await call<{ id: string }>('POST /edi/partners', '/edi/partners', {
      tenantId,
      name: 'Typed',
      partner: { qualifier: 'ZZ', interchangeId: 'TYPED', groupCode: 'TYPED' },
      us: { qualifier: 'ZZ', interchangeId: 'WAREHOUSE', groupCode: 'WAREHOUSE' },
    });
    await call('GET /edi/partners', '/edi/partners');
    await call('GET /edi/partners/{id}', base);
    await call('PATCH /edi/partners/{id}', base, { separators: { element: '*', component: '*', segment: '~' } });
    await call('POST /edi/partners/{id}/sftp/password', `${base}/sftp/password`);
    const key = await call<{ fingerprint: string }>('POST /edi/partners/{id}/sftp/keys', `${base}/sftp/keys`, {
      publicKey: opensshKey(keys, 'typed').publicKey,
    });
    await call(
      'DELETE /edi/partners/{id}/sftp/keys/{fingerprint}',
      `${base}/sftp/keys/${encodeURIComponent(key.body.fingerprint)}`,
    );
    await call('GET /edi/partners/{id}/documents', `${base}/documents`);
    await call('GET /edi/partners/{id}/documents/{documentId}', `${base}/documents/${shipped.id}`);
    await call('POST /edi/partners/{id}/enable', `${base}/enable`);
    await call('POST /edi/partners/{id}/documents/{documentId}/resend', `${base}/documents/${shipped.id}/resend`);
    await call('POST /edi/partners/{id}/inventory-advice', `${base}/inventory-advice`);
    await call('POST /edi/partners/{id}/disable', `/edi/partners/${created.body.id}/disable`);
    const removed = await call('DELETE /edi/partners/{id}', `/edi/partners/${created.body.id}`);
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/edi/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

    expect(problems).toEqual([]);
    expect(removed.status).toBe(204);
    expect([...called].sort()).toEqual(operations.sort());
  });
});
