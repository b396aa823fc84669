import { type Router, type Request, type RequestHandler } from 'express';
import helmet from 'helmet';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { UsersRepository, type TokenService } from '@wms/identity';
import { AppError, RedisDeadline, RedisTimeoutError, type Database } from '@wms/platform';
import type { MaintenanceQueue } from '@wms/setup';
import type { IngestQueue } from '@wms/ingest';
import type { WebhookDeliveryQueue } from '@wms/webhooks';
import {
  caseSensitiveRouter,
  crossTenantAdminRequired,
  readCookie,
  requireCrossTenantAdmin,
  requireJwt,
} from '../http/index.js';
import { GUARDED, adminRouter, ok, type AdminEndpoint, type PublicEndpoint } from './admin-route.js';

export const QUEUE_CONSOLE_PATH = '/admin/queues';
export const QUEUE_CONSOLE_COOKIE = 'wms_queue_console';
/** A console session is short: the portal opens a new one each time an admin follows its link. */
export const QUEUE_CONSOLE_TTL_SECONDS = 900;
/**
 * Each Redis read of the console gets 2 s (a page of jobs with their data is heavier than a rate-limit call);
 * after one times out, reads fail at once for 1 s, so a frozen Redis answers the page 503, never a hang.
 */
export const QUEUE_CONSOLE_DEADLINE = { timeoutMs: 2_000, pauseMs: 1_000 };

/** Bull Board answers an error's `statusCode` (else 500) with its message. */
class ConsoleRedisUnavailable extends Error {
  readonly statusCode = 503;
}

type AdapterOptions = ConstructorParameters<typeof BullMQAdapter>[1];
type Args<Method extends keyof BullMQAdapter> = BullMQAdapter[Method] extends (...args: infer A) => unknown ? A : never;

/**
 * Bull Board's BullMQ adapter with every Redis read under the console's deadline; a read that runs out
 * answers 503. Bull Board has no option for a deadline; its adapter classes are its documented extension
 * point, and these overrides are checked by the compiler against its declared methods. Actions (retry,
 * clean, pause) are left unbounded, as Redis runs them anyway.
 */
class BoundedBullMQAdapter extends BullMQAdapter {
  constructor(
    queue: ConstructorParameters<typeof BullMQAdapter>[0],
    options: AdapterOptions,
    private readonly consoleDeadline: RedisDeadline,
  ) {
    super(queue, options);
  }

  private bounded<T>(read: () => Promise<T>): Promise<T> {
    return this.consoleDeadline.run(read).catch((error: unknown) => {
      if (error instanceof RedisTimeoutError)
        throw new ConsoleRedisUnavailable(`The queues did not answer in time (${error.message}); retry shortly`);
      throw error;
    });
  }

  override getRedisInfo() {
    return this.bounded(() => super.getRedisInfo());
  }
  override getDatastoreStats() {
    return this.bounded(() => super.getDatastoreStats());
  }
  override getWorkers() {
    return this.bounded(() => super.getWorkers());
  }
  override getJob(...args: Args<'getJob'>) {
    return this.bounded(() => super.getJob(...args));
  }
  override getJobs(...args: Args<'getJobs'>) {
    return this.bounded(() => super.getJobs(...args));
  }
  override getJobCounts() {
    return this.bounded(() => super.getJobCounts());
  }
  override getJobLogs(...args: Args<'getJobLogs'>) {
    return this.bounded(() => super.getJobLogs(...args));
  }
  override getMetrics(...args: Args<'getMetrics'>) {
    return this.bounded(() => super.getMetrics(...args));
  }
  override isPaused() {
    return this.bounded(() => super.isPaused());
  }
  override getGlobalConcurrency() {
    return this.bounded(() => super.getGlobalConcurrency());
  }
  override getActiveRateLimitTtl() {
    return this.bounded(() => super.getActiveRateLimitTtl());
  }
  override getJobSchedulersCount() {
    return this.bounded(() => super.getJobSchedulersCount());
  }
  override getJobSchedulers() {
    return this.bounded(() => super.getJobSchedulers());
  }
  override getConfiguredRateLimit() {
    return this.bounded(() => super.getConfiguredRateLimit());
  }
}

/**
 * Bull Board over the ingest, webhook and maintenance queues, for cross-tenant admins only (the jobs of every tenant). A browser that navigates here cannot
 * send a bearer token, so besides `Authorization: Bearer <admin access token>` the console accepts its own
 * short-lived token in an httpOnly, SameSite=Strict cookie scoped to this path (see the session routes).
 * The webhook queue is read-only: a delivery's truth is in PostgreSQL and is redelivered through the API.
 * The ingest queue is read-only but for retrying a failed job (a bulk job is committed to PostgreSQL, so
 * pausing, emptying or obliterating the queue would only strand work).
 */
export function queueConsoleRoutes(
  tokens: TokenService,
  db: Database,
  queues: { ingest: IngestQueue; webhook: WebhookDeliveryQueue; maintenance: MaintenanceQueue },
): Router {
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_CONSOLE_PATH);
  const deadline = new RedisDeadline(QUEUE_CONSOLE_DEADLINE);
  createBullBoard({
    queues: [
      // Bull Board's readOnlyMode would refuse retries too; ingestActionsOnly keeps this queue read-only but
      // for retrying a failed job.
      new BoundedBullMQAdapter(queues.ingest, { allowRetries: true }, deadline),
      new BoundedBullMQAdapter(queues.webhook, { readOnlyMode: true }, deadline),
      // Its schedulers make the jobs and retry them; the console shows them, changes none.
      new BoundedBullMQAdapter(queues.maintenance, { readOnlyMode: true }, deadline),
    ],
    serverAdapter,
    options: { uiConfig: { boardTitle: 'WMS queues' } },
  });
  const router = caseSensitiveRouter();
  router.use(
    consoleAuth(tokens, db),
    consoleCsp,
    ingestActionsOnly(queues.ingest),
    serverAdapter.getRouter() as RequestHandler,
  );
  return router;
}

const RETRY_ONE = /^\/api\/queues\/([^/]+)\/([^/]+)\/retry$/;
const RETRY_FAILED = /^\/api\/queues\/([^/]+)\/retry\/failed$/;

function decoded(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/**
 * Every change through the console is refused but retrying the ingest queue's failed jobs (one, or all the
 * failed ones): pausing, emptying, cleaning, obliterating, adding, promoting or editing jobs would strand or
 * forge work whose truth is in PostgreSQL. A completed job is not retried (its effect happened once).
 */
function ingestActionsOnly(ingest: IngestQueue): RequestHandler {
  const refuse = () => AppError.forbidden('The queue console only retries failed ingest jobs', 'QUEUE_READ_ONLY');
  return async (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (req.method !== 'PUT') throw refuse();
    const all = RETRY_FAILED.exec(req.path);
    if (all && decoded(all[1]!) === ingest.name) return next();
    const one = RETRY_ONE.exec(req.path);
    if (!one || decoded(one[1]!) !== ingest.name) throw refuse();
    const jobId = decoded(one[2]!);
    const job = jobId ? await ingest.getJob(jobId) : undefined;
    if (job && (await job.getState()) !== 'failed') throw refuse();
    next();
  };
}

/**
 * Bull Board's page uses inline styles and loads its scripts, styles and data from this path; nothing
 * from other origins is allowed (its web font from Google falls back to a local font).
 */
const consoleCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

function consoleAuth(tokens: TokenService, db: Database): RequestHandler {
  const bearer = requireJwt(tokens);
  const users = new UsersRepository(db);
  return async (req, res, next) => {
    const cookie = readCookie(req, QUEUE_CONSOLE_COOKIE);
    if (!cookie || req.headers.authorization) {
      bearer(req, res, (error?: unknown) => (error ? next(error) : requireCrossTenantAdmin(req, res, next)));
      return;
    }
    const { sub } = tokens.verifyQueueConsole(cookie);
    // The session outlives no change of the account: a disabled or demoted admin is out at once.
    const user = await users.findById(sub);
    if (!user || user.status !== 'active') throw AppError.unauthorized('Queue console session is no longer valid');
    if (user.role !== 'admin') throw AppError.forbidden('Admin role required');
    if (user.tenantId) throw crossTenantAdminRequired();
    next();
  };
}

interface SessionDeps {
  tokens: TokenService;
  secureCookies: boolean;
}

const consoleCookieOptions = (req: Request, secureCookies: boolean) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  path: QUEUE_CONSOLE_PATH,
  secure: secureCookies || req.secure,
});

/**
 * POST opens a console session for the signed-in admin (the cookie only; the token is never in a body),
 * DELETE ends it. The admin portal calls POST, then sends the browser to /admin/queues/. Declared once: the
 * router below and the admin document are made from these entries.
 */
export const QUEUE_CONSOLE_SESSION_ROUTES: ReadonlyArray<AdminEndpoint<SessionDeps> | PublicEndpoint<SessionDeps>> = [
  {
    method: 'post',
    path: '/auth/queue-console-session',
    tag: 'auth',
    access: 'admin',
    summary: 'Open the queue console: a short session cookie scoped to /admin/queues',
    responses: { 200: ok('the console is open at url', 'QueueConsoleSession'), ...GUARDED },
    // The console shows every tenant's jobs: an admin bound to a tenant is refused.
    before: [() => requireCrossTenantAdmin],
    handle:
      ({ tokens, secureCookies }) =>
      (req, res) => {
        const token = tokens.issueQueueConsole(req.principal.sub, QUEUE_CONSOLE_TTL_SECONDS);
        res.cookie(QUEUE_CONSOLE_COOKIE, token, {
          ...consoleCookieOptions(req, secureCookies),
          maxAge: QUEUE_CONSOLE_TTL_SECONDS * 1000,
        });
        res.json({ url: `${QUEUE_CONSOLE_PATH}/`, expiresIn: QUEUE_CONSOLE_TTL_SECONDS });
      },
  },
  {
    method: 'delete',
    path: '/auth/queue-console-session',
    tag: 'auth',
    access: 'public',
    summary: 'Close the queue console: its cookie is cleared',
    responses: { 204: { description: 'closed' } },
    handle:
      ({ secureCookies }) =>
      (req, res) => {
        res.clearCookie(QUEUE_CONSOLE_COOKIE, consoleCookieOptions(req, secureCookies));
        res.status(204).end();
      },
  },
];

/** The console session's router, made from its declarations (mounted on the admin base path itself). */
export function queueConsoleSessionRoutes(tokens: TokenService, secureCookies: boolean): Router {
  return adminRouter(QUEUE_CONSOLE_SESSION_ROUTES, { tokens, secureCookies }, tokens);
}
