import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import bcrypt from 'bcrypt';
import ssh2 from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import { ConfigError, unitOfWork, loadConfig, queuePrefix } from '@wms/platform';
import { EdiInboxService, InterchangesRepository, MailboxRepository, createEdiQueue, type EdiQueue } from '@wms/edi';
import { createTestContext, defaultTenantId, waitFor, type TestContext } from '@wms/testing';
import { startEdiSftp, type EdiSftpServer } from './edi-sftp.js';
import { MAX_OPEN_UPLOADS_PER_SESSION } from './mailbox-session.js';
import { newEd25519KeyPair, resolveHostKeys } from './host-keys.js';

const MAX_FILE_BYTES = 4096;
const LOGIN_FAILURES_ALLOWED = 4;

interface Account {
  id: string;
  username: string;
  password: string;
  privateKey: string;
}

let ctx: TestContext;
let server: EdiSftpServer;
let queue: EdiQueue;
let tenantId: string;
let mailbox: MailboxRepository;
let interchanges: InterchangesRepository;
let acme: Account;
let globex: Account;
const clients: SftpClient[] = [];

/** A partner of the DEFAULT tenant with an SFTP account (a password and a public key), as the admin API would store it. */
async function createPartner(label: string, status: 'active' | 'disabled' = 'active'): Promise<Account> {
  const keys = newEd25519KeyPair();
  const account = {
    username: `${label}-${randomBytes(3).toString('hex')}`,
    password: `pw-${randomBytes(8).toString('hex')}`,
  };
  const [rows] = (await ctx.runtime.db.sequelize.query(
    `INSERT INTO edi_trading_partners (tenant_id, name, status, partner_qualifier, partner_interchange_id, our_qualifier,
                                       our_interchange_id, partner_group_code, our_group_code, sftp_username,
                                       sftp_password_hash, sftp_public_keys)
     VALUES ($1, $2, $3, 'ZZ', $4, 'ZZ', 'WMSTEST', $4, 'WMSTEST', $5, $6, ARRAY[$7]::text[]) RETURNING id`,
    {
      bind: [
        tenantId,
        label,
        status,
        account.username.toUpperCase().slice(0, 15),
        account.username,
        await bcrypt.hash(account.password, 4),
        keys.public,
      ],
    },
  )) as [Array<{ id: string }>, unknown];
  return { id: rows[0]!.id, ...account, privateKey: keys.private };
}

/** Puts a document of ours into the partner's out/ folder, as the outbound side does. */
async function putOutbound(partner: Account, name: string, content: Buffer): Promise<string> {
  return unitOfWork(ctx.runtime.db, async (transaction) => {
    const interchange = await interchanges.insert(
      {
        tenantId,
        partnerId: partner.id,
        direction: 'out',
        source: 'event',
        fileName: name,
        interchangeControl: '000000001',
        setCodes: ['945'],
        raw: content,
        state: 'sent',
      },
      transaction,
    );
    await mailbox.put({ partnerId: partner.id, folder: 'out', name, interchangeId: interchange.id }, transaction);
    return interchange.id;
  });
}

async function connect(
  account: Pick<Account, 'username'>,
  secret: { password: string } | { privateKey: string },
): Promise<SftpClient> {
  const client = new SftpClient();
  clients.push(client);
  await client.connect({
    host: '127.0.0.1',
    port: server.port,
    username: account.username,
    readyTimeout: 10_000,
    retries: 0,
    ...secret,
  });
  return client;
}

async function storedInbound(partner: Account): Promise<Array<{ fileName: string; state: string; raw: Buffer }>> {
  const [rows] = (await ctx.runtime.db.sequelize.query(
    `SELECT file_name AS "fileName", state, raw FROM edi_interchanges WHERE partner_id = $1 AND direction = 'in' ORDER BY created_at`,
    { bind: [partner.id] },
  )) as [Array<{ fileName: string; state: string; raw: Buffer }>, unknown];
  return rows;
}

/** A session of ssh2's own client, for what ssh2-sftp-client does not do (leave an upload open, cut a session). */
async function rawSession(account: Account): Promise<{ raw: ssh2.Client; sftp: ssh2.SFTPWrapper }> {
  const raw = new ssh2.Client();
  await new Promise<void>((resolve, reject) =>
    raw
      .on('ready', resolve)
      .on('error', reject)
      .connect({ host: '127.0.0.1', port: server.port, username: account.username, password: account.password }),
  );
  const sftp = await new Promise<ssh2.SFTPWrapper>((resolve, reject) =>
    raw.sftp((error, wrapper) => (error ? reject(error) : resolve(wrapper))),
  );
  return { raw, sftp };
}

function openForWrite(sftp: ssh2.SFTPWrapper, path: string): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) =>
    sftp.open(path, 'w', (error, opened) => (error ? reject(error) : resolve(opened))),
  );
}

/** What ssh2-sftp-client rejects with when the server answers SSH_FX_PERMISSION_DENIED with this message. */
const permissionDenied = (message: RegExp) => ({
  code: ssh2.utils.sftp.STATUS_CODE.PERMISSION_DENIED,
  message: expect.stringMatching(message),
});

const x12 = (control: string) =>
  Buffer.from(
    `ISA*00*          *00*          *ZZ*ACME           *ZZ*WMSTEST        *261202*0930*U*00401*${control}*0*P*>~` +
      `GS*OW*ACME*WMSTEST*20261202*0930*1*X*004010~ST*940*0001~W05*N*ORDER-1~SE*3*0001~GE*1*1~IEA*1*${control}~`,
  );

beforeAll(async () => {
  ctx = await createTestContext('edi-sftp', {
    EDI_SFTP_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    LOGIN_FAILURES_PER_IP_PER_MINUTE: String(LOGIN_FAILURES_ALLOWED),
  });
  tenantId = await defaultTenantId(ctx);
  mailbox = new MailboxRepository(ctx.runtime.db);
  interchanges = new InterchangesRepository(ctx.runtime.db);
  acme = await createPartner('acme');
  globex = await createPartner('globex');
  queue = createEdiQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.runtime.config) });
  const inbox = new EdiInboxService(ctx.runtime.db, queue, ctx.runtime.logger);
  server = await startEdiSftp(ctx.runtime, { inbox, port: 0, host: '127.0.0.1' });
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.end()));
});

afterAll(async () => {
  await server?.close();
  await queue?.close();
  await ctx?.close();
});

describe('signing in', () => {
  it('when a partner signs in with its password, it sees its folders in/, out/ and archive/', async () => {
    const client = await connect(acme, { password: acme.password });

    const root = await client.list('/');

    expect(root.map(({ name, type }) => ({ name, type }))).toEqual([
      { name: 'in', type: 'd' },
      { name: 'out', type: 'd' },
      { name: 'archive', type: 'd' },
    ]);
    expect(await client.realPath('.')).toBe('/');
  });

  it('when a partner signs in with its key, it is let in', async () => {
    const client = await connect(acme, { privateKey: acme.privateKey });

    expect(await client.exists('/out')).toBe('d');
  });

  it('when the password is wrong, the user unknown or the partner disabled, the login is refused alike', async () => {
    const disabled = await createPartner('disabled', 'disabled');
    const stranger = newEd25519KeyPair();

    const refusals = await Promise.all([
      connect(acme, { password: 'not-the-password' }).then(
        () => 'let in',
        (error: Error) => error.message,
      ),
      connect({ username: 'nobody-here' }, { password: acme.password }).then(
        () => 'let in',
        (error: Error) => error.message,
      ),
      connect(disabled, { password: disabled.password }).then(
        () => 'let in',
        (error: Error) => error.message,
      ),
      connect(disabled, { privateKey: disabled.privateKey }).then(
        () => 'let in',
        (error: Error) => error.message,
      ),
      connect(acme, { privateKey: stranger.private }).then(
        () => 'let in',
        (error: Error) => error.message,
      ),
    ]);

    expect(refusals.every((message) => /authentication methods failed/i.test(message))).toBe(true);
  });

  it('when a user fails too often from one address, even the right password is refused until the window passes', async () => {
    const target = await createPartner('guessed');
    for (let attempt = 0; attempt < LOGIN_FAILURES_ALLOWED; attempt++) {
      await expect(connect(target, { password: `guess-${attempt}` })).rejects.toThrow(/authentication/i);
    }

    await expect(connect(target, { password: target.password })).rejects.toThrow(/authentication/i);
    // Another user from the same address is not held up by it.
    const other = await connect(globex, { password: globex.password });
    expect(await other.exists('/in')).toBe('d');
  });

  it('without EDI_SFTP_HOST_KEYS the host key is generated once and the same at every start; production refuses', async () => {
    const first = await resolveHostKeys(ctx.config, ctx.runtime.db);
    const second = await resolveHostKeys(ctx.config, ctx.runtime.db);
    const production = { ...ctx.config, nodeEnv: 'production' as const };

    expect(second).toEqual(first);
    expect(first).toHaveLength(1);
    await expect(resolveHostKeys(production, ctx.runtime.db)).rejects.toThrow(ConfigError);
  });

  it('when EDI_SFTP_HOST_KEYS is malformed, the refusal does not repeat the value', () => {
    const value = '-----BEGIN OPENSSH PRIVATE KEY-----secret-bytes';

    expect(() => loadConfig({ ...ctx.env, EDI_SFTP_HOST_KEYS: 'secret-bytes' })).toThrow(
      /EDI_SFTP_HOST_KEYS must hold PEM private keys/,
    );
    expect(() => loadConfig({ ...ctx.env, EDI_SFTP_HOST_KEYS: 'secret-bytes' })).not.toThrow(/secret-bytes/);
    expect(loadConfig({ ...ctx.env, EDI_SFTP_HOST_KEYS: value }).ediSftp.hostKeys).toBe(value);
  });
});

describe('sending us a file', () => {
  it('when an upload into in/ is complete, it is stored once as a received interchange and listed in in/', async () => {
    const client = await connect(acme, { password: acme.password });
    const content = x12('000000101');

    await client.put(content, '/in/order-101.x12');

    const stored = await storedInbound(acme);
    expect(stored).toEqual([{ fileName: 'order-101.x12', state: 'received', raw: content }]);
    const listed = await client.list('/in');
    expect(listed.map(({ name, size, type }) => ({ name, size, type }))).toEqual([
      { name: 'order-101.x12', size: content.length, type: '-' },
    ]);
  });

  it('when a name already in in/ is sent again, it is refused and nothing more is stored', async () => {
    const client = await connect(acme, { privateKey: acme.privateKey });
    await client.put(x12('000000102'), '/in/order-102.x12');

    await expect(client.put(x12('000000103'), '/in/order-102.x12')).rejects.toThrow(/exists/);

    expect((await storedInbound(acme)).filter(({ fileName }) => fileName === 'order-102.x12')).toHaveLength(1);
  });

  it('when an upload passes EDI_SFTP_MAX_FILE_BYTES, it fails with the limit named and nothing is stored', async () => {
    const client = await connect(globex, { password: globex.password });
    const before = await storedInbound(globex);

    await expect(client.put(randomBytes(MAX_FILE_BYTES + 1), '/in/too-big.x12')).rejects.toThrow(/limit/);

    expect(await storedInbound(globex)).toEqual(before);
    expect(await mailbox.find(globex.id, 'in', 'too-big.x12')).toBeNull();
  });

  it('when an upload is cut before the client closes the file, nothing is stored and the name stays free', async () => {
    const before = await storedInbound(globex);
    const sessionsBefore = server.sessions();
    const { raw, sftp } = await rawSession(globex);
    const handle = await openForWrite(sftp, '/in/cut.x12');
    await new Promise<void>((resolve, reject) =>
      sftp.write(handle, x12('000000104'), 0, 40, 0, (error) => (error ? reject(error) : resolve())),
    );

    raw.destroy();
    await waitFor(() => server.sessions() === sessionsBefore, 10_000, 'the cut session to end');

    expect(await storedInbound(globex)).toEqual(before);
    const client = await connect(globex, { password: globex.password });
    await client.put(x12('000000104'), '/in/cut.x12');
    expect((await storedInbound(globex)).map(({ fileName }) => fileName)).toContain('cut.x12');
  });

  it('when a session holds as many uploads open as it may, the next one is refused until one is closed', async () => {
    const { raw, sftp } = await rawSession(globex);
    try {
      const names = Array.from({ length: MAX_OPEN_UPLOADS_PER_SESSION }, (_, at) => `/in/many-${at}.x12`);
      const handles = await Promise.all(names.map((name) => openForWrite(sftp, name)));

      await expect(openForWrite(sftp, '/in/one-too-many.x12')).rejects.toThrow(/at most/i);

      const first = x12('000000310');
      await new Promise<void>((resolve, reject) =>
        sftp.write(handles[0]!, first, 0, first.length, 0, (error) => (error ? reject(error) : resolve())),
      );
      await new Promise<void>((resolve, reject) =>
        sftp.close(handles[0]!, (error) => (error ? reject(error) : resolve())),
      );
      const next = await openForWrite(sftp, '/in/one-too-many.x12');
      expect(next.length).toBeGreaterThan(0);
      expect(await mailbox.find(globex.id, 'in', 'many-0.x12')).not.toBeNull();
    } finally {
      raw.end();
    }
  });

  it('when the partner is disabled while its upload is open, closing it is refused and nothing is stored', async () => {
    const partner = await createPartner('disabled-later');
    const { raw, sftp } = await rawSession(partner);
    try {
      const handle = await openForWrite(sftp, '/in/late.x12');
      await new Promise<void>((resolve, reject) =>
        sftp.write(handle, x12('000000301'), 0, 40, 0, (error) => (error ? reject(error) : resolve())),
      );
      await ctx.runtime.db.sequelize.query(`UPDATE edi_trading_partners SET status = 'disabled' WHERE id = $1`, {
        bind: [partner.id],
      });

      const closing = new Promise<void>((resolve, reject) =>
        sftp.close(handle, (error) => (error ? reject(error) : resolve())),
      );

      await expect(closing).rejects.toThrow(/disabled/);
      expect(await storedInbound(partner)).toEqual([]);
    } finally {
      raw.end();
    }
  });

  it('when a partner writes anywhere but in/, or makes or removes folders, it is refused as not permitted', async () => {
    const client = await connect(acme, { password: acme.password });

    await expect(client.put(Buffer.from('x'), '/out/mine.x12')).rejects.toMatchObject(permissionDenied(/in\//));
    await expect(client.put(Buffer.from('x'), '/archive/mine.x12')).rejects.toMatchObject(permissionDenied(/in\//));
    await expect(client.put(Buffer.from('x'), '/mine.x12')).rejects.toThrow(/no such file/i);
    await expect(client.mkdir('/in/sub')).rejects.toMatchObject(permissionDenied(/folders/));
    await expect(client.rmdir('/out')).rejects.toMatchObject(permissionDenied(/folders/));
    await expect(client.chmod('/out', 0o777)).rejects.toMatchObject(permissionDenied(/Folders/));
    expect(await mailbox.find(acme.id, 'out', 'mine.x12')).toBeNull();
    expect(await mailbox.find(acme.id, 'archive', 'mine.x12')).toBeNull();
  });
});

describe('reading what we wrote', () => {
  it('when we put a file into out/, the partner lists it and downloads it byte for byte', async () => {
    const content = randomBytes(200_000);
    await putOutbound(acme, 'advice-945.x12', content);
    const client = await connect(acme, { password: acme.password });

    const listed = await client.list('/out');
    const downloaded = (await client.get('/out/advice-945.x12')) as Buffer;

    expect(listed.find(({ name }) => name === 'advice-945.x12')).toMatchObject({ size: content.length, type: '-' });
    expect(downloaded.equals(content)).toBe(true);
    expect(await client.stat('/out/advice-945.x12')).toMatchObject({ size: content.length, isFile: true });
  });

  it('when the partner renames a file from out/ to archive/, it is done: gone from out/, in archive/', async () => {
    await putOutbound(acme, 'advice-done.x12', Buffer.from('done'));
    const client = await connect(acme, { privateKey: acme.privateKey });

    await client.rename('/out/advice-done.x12', '/archive/advice-done.x12');

    expect(await mailbox.find(acme.id, 'out', 'advice-done.x12')).toBeNull();
    expect(await mailbox.find(acme.id, 'archive', 'advice-done.x12')).not.toBeNull();
    expect(((await client.get('/archive/advice-done.x12')) as Buffer).toString()).toBe('done');
    await expect(client.rename('/archive/advice-done.x12', '/out/advice-done.x12')).rejects.toMatchObject(
      permissionDenied(/from out\/ to archive\/ only/),
    );
  });

  it('when the partner removes a file from archive/, its name goes and the interchange stays', async () => {
    const interchangeId = await putOutbound(acme, 'advice-old.x12', Buffer.from('old'));
    await mailbox.move(
      acme.id,
      { folder: 'out', name: 'advice-old.x12' },
      { folder: 'archive', name: 'advice-old.x12' },
    );
    const client = await connect(acme, { password: acme.password });

    await client.delete('/archive/advice-old.x12');

    expect(await mailbox.find(acme.id, 'archive', 'advice-old.x12')).toBeNull();
    expect(await interchanges.find(interchangeId)).not.toBeNull();
  });

  it("when a partner looks for another partner's files, even through ../, it finds nothing", async () => {
    await putOutbound(globex, 'globex-only.x12', Buffer.from('secret of globex'));
    const client = await connect(acme, { password: acme.password });

    const outNames = (await client.list('/out')).map(({ name }) => name);

    expect(outNames).not.toContain('globex-only.x12');
    await expect(client.get('/out/globex-only.x12')).rejects.toThrow(/no such file/i);
    await expect(client.get(`/../${globex.username}/out/globex-only.x12`)).rejects.toThrow(/no such file/i);
    await expect(client.get('../../out/globex-only.x12')).rejects.toThrow(/no such file/i);
    expect(await client.realPath('/in/../../..')).toBe('/');
    await expect(client.rename('/out/globex-only.x12', '/archive/globex-only.x12')).rejects.toThrow(/no such file/i);
    await expect(client.delete('/out/globex-only.x12')).rejects.toThrow(/no such file/i);
    expect(await mailbox.find(globex.id, 'out', 'globex-only.x12')).not.toBeNull();
  });
});

describe("OpenSSH's sftp client", () => {
  // .ci/run installs OpenSSH's client where it is missing: the case runs everywhere CI does.
  it('when a partner uses OpenSSH with its key, it uploads to in/, lists and downloads out/ and archives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wms-edi-sftp-'));
    try {
      const keyFile = join(dir, 'id_ed25519');
      writeFileSync(keyFile, acme.privateKey, { mode: 0o600 });
      writeFileSync(join(dir, 'order.x12'), x12('000000201'));
      const advice = randomBytes(70_000);
      await putOutbound(acme, 'openssh-945.x12', advice);
      const batch = join(dir, 'batch');
      writeFileSync(
        batch,
        [
          `put ${join(dir, 'order.x12')} in/openssh-order.x12`,
          'ls -l out',
          `get out/openssh-945.x12 ${join(dir, 'advice.x12')}`,
          'rename out/openssh-945.x12 archive/openssh-945.x12',
          '',
        ].join('\n'),
      );

      // Asynchronous: the server answers from this very process.
      const { stdout } = await promisify(execFile)(
        'sftp',
        [
          '-b',
          batch,
          '-i',
          keyFile,
          '-P',
          String(server.port),
          '-o',
          'BatchMode=yes',
          '-o',
          'StrictHostKeyChecking=no',
          '-o',
          'UserKnownHostsFile=/dev/null',
          '-o',
          'IdentitiesOnly=yes',
          `${acme.username}@127.0.0.1`,
        ],
        { timeout: 20_000 },
      );

      expect(stdout).toMatch(new RegExp(`^-rw-r--r-- .* ${advice.length} .* openssh-945\\.x12$`, 'm'));
      expect(readFileSync(join(dir, 'advice.x12')).equals(advice)).toBe(true);
      expect(await mailbox.find(acme.id, 'in', 'openssh-order.x12')).toMatchObject({
        sizeBytes: x12('000000201').length,
      });
      expect(await mailbox.find(acme.id, 'archive', 'openssh-945.x12')).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
