import type { AddressInfo } from 'node:net';
import ssh2, { type Connection } from 'ssh2';
import { AttemptThrottle, RedisDeadline, redisKey, settleWithin, type Runtime } from '@wms/platform';
import { MailboxRepository, PartnersRepository, type EdiInbox } from '@wms/edi';
import { SftpAuthenticator } from './authentication.js';
import { resolveHostKeys } from './host-keys.js';
import { serveMailbox, type SessionPartner } from './mailbox-session.js';
import { sftpMetrics } from './metrics.js';

/** How long a connection may take to sign in before it is closed. */
export const LOGIN_GRACE_MS = 30_000;
/** Refused sign-ins one connection may try before it is closed (OpenSSH's MaxAuthTries). */
export const MAX_AUTH_TRIES_PER_CONNECTION = 6;
const KEEPALIVE_INTERVAL_MS = 30_000;
const REDIS_DEADLINE = { timeoutMs: 250, pauseMs: 1_000 };
const AUTH_METHODS: Array<'publickey' | 'password'> = ['publickey', 'password'];

export interface EdiSftpOptions {
  /** Takes a completed upload in; the EDI engine's inbox in production. */
  inbox: EdiInbox;
  /** Overrides EDI_SFTP_PORT and EDI_SFTP_HOST (specs listen on port 0 of loopback). */
  port?: number;
  host?: string;
}

export interface EdiSftpServer {
  /** The port it listens on (the one chosen when asked for 0). */
  port: number;
  /** Sessions open now. */
  sessions(): number;
  /**
   * Graceful: takes no new connection, lets the uploads being handed over finish (within `timeoutMs`), then
   * ends every session; an upload still open is lost, as if cut (nothing of it was stored).
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The hosted SFTP endpoint of the EDI partners (ADR 0207, "The SFTP endpoint"): ssh2's server with the partners'
 * accounts, each seeing its own mailbox (in/, out/, archive/) and nothing else: no shell, no exec, no forwarding.
 */
export async function startEdiSftp(runtime: Runtime, options: EdiSftpOptions): Promise<EdiSftpServer> {
  const { config, db, logger } = runtime;
  const partners = new PartnersRepository(db);
  const mailbox = new MailboxRepository(db);
  const deadline = new RedisDeadline(REDIS_DEADLINE, (answering) =>
    answering
      ? logger.info('edi-sftp: Redis answers again; login throttling is shared across replicas again')
      : logger.warn('edi-sftp: Redis does not answer in time; login throttling runs in-process until it does'),
  );
  const failures = new AttemptThrottle(runtime.redis, {
    keyPrefix: redisKey(config.redisKeyPrefix, 'throttle', 'edi-sftp-login'),
    points: config.throttle.loginFailuresPerIpPerMinute,
    durationSeconds: 60,
    deadline,
  });
  const authenticator = new SftpAuthenticator(partners, failures, logger, config.bcryptRounds);
  const clients = new Set<Connection>();
  const handOvers = new Set<Promise<unknown>>();
  const uploading = new Set<string>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    handOvers.add(work);
    void work.catch(() => undefined).finally(() => handOvers.delete(work));
    return work;
  };

  const server = new ssh2.Server({
    hostKeys: await resolveHostKeys(config, db),
    ident: 'wms-edi-sftp',
    // A peer gone without a word (a cut link) is found within about 90 s, and its session and uploads let go.
    keepaliveInterval: KEEPALIVE_INTERVAL_MS,
    keepaliveCountMax: 3,
  });
  server.on('connection', (client, info) => {
    clients.add(client);
    sftpMetrics.connections.inc();
    let partner: SessionPartner | undefined;
    let refusals = 0;
    const grace = setTimeout(() => {
      if (!partner) client.end();
    }, LOGIN_GRACE_MS);
    client.on('authentication', (ctx) => {
      authenticator.authenticate(ctx, info.ip).then(
        (outcome) => {
          if (outcome.kind === 'accepted') {
            partner = { partnerId: outcome.partnerId, username: outcome.username };
            sftpMetrics.logins.inc({ result: 'accepted' });
            return ctx.accept();
          }
          if (outcome.kind === 'key-acceptable') return ctx.accept();
          if (ctx.method !== 'none') {
            sftpMetrics.logins.inc({ result: outcome.throttled ? 'throttled' : 'refused' });
            if (++refusals >= MAX_AUTH_TRIES_PER_CONNECTION) return client.end();
          }
          ctx.reject(AUTH_METHODS);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'edi-sftp: login check failed');
          ctx.reject(AUTH_METHODS);
        },
      );
    });
    client.on('ready', () => {
      clearTimeout(grace);
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => {
          if (!partner) return;
          serveMailbox(acceptSftp(), partner, {
            mailbox,
            partners,
            inbox: options.inbox,
            maxFileBytes: config.ediSftp.maxFileBytes,
            logger,
            uploading,
            track,
          });
        });
        // The account is a mailbox: no shell, no command, no terminal.
        session.on('exec', (_accept, reject) => reject());
        session.on('shell', (_accept, reject) => reject());
        session.on('pty', (_accept, reject) => reject());
      });
      client.on('tcpip', (_accept, reject) => reject());
      client.on('openssh.streamlocal', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
    });
    client.on('error', (error) => logger.debug({ err: error, address: info.ip }, 'edi-sftp: connection error'));
    client.on('close', () => {
      clearTimeout(grace);
      clients.delete(client);
      sftpMetrics.connections.dec();
    });
  });
  server.on('error', (error: Error) => logger.error({ err: error }, 'edi-sftp: server error'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? config.ediSftp.port, options.host ?? config.ediSftp.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, host: options.host ?? config.ediSftp.host }, 'edi-sftp: listening');

  let closing: Promise<void> | undefined;
  return {
    port,
    sessions: () => clients.size,
    close(timeoutMs = 10_000) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Hand-overs that begin while earlier ones finish are waited for too, within the one bound.
        const deadline = Date.now() + timeoutMs;
        while (handOvers.size > 0 && Date.now() < deadline)
          await settleWithin(Promise.allSettled([...handOvers]), deadline - Date.now());
        for (const client of clients) client.end();
        await settleWithin(closed, 2_000);
      })();
      return closing;
    },
  };
}
