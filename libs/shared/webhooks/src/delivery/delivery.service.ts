import type { KeyObject } from 'node:crypto';
import type { Config } from '@wms/platform';
import { ACROSS_TENANTS, type TenantWrites } from '@wms/platform';
import type { Database } from '@wms/platform';
import { TenantsService } from '@wms/identity';
import { deliveryJobId } from './webhook-delivery.contract.js';
import { backoffDelay, parseRetryAfter } from './backoff.js';
import { DeliveryRepository, type DeliveryWork } from './delivery.repository.js';
import { DestinationSenders, type DocumentDestination, type Sent } from './destination-senders.js';
import { sendInEventTrace } from './delivery-trace.js';
import type { Pace, SubscriberGate } from './subscriber-gate.js';
import { versionedWebhookBody } from './versioned-body.js';
import {
  isBlockedAddress,
  literalAddress,
  parseWebhookUrl,
  SecretBox,
  webhookHeaders,
  webhookSigningKey,
} from '../subscriptions/index.js';
import { brokerHostUrl } from '../destinations/index.js';

/** What one attempt came to; the queue processor turns it into BullMQ's terms. */
export type AttemptOutcome =
  /** statusCode: the receiver's 2xx; null for a broker's confirm. */
  (
    | { kind: 'succeeded'; statusCode: number | null }
    /** Nothing to do: the delivery is gone, finished, or belongs to a newer run than this job. */
    | { kind: 'skipped'; reason: string }
    /** No attempt yet: this process had no turn for it (its slow subscriber's share is taken); try after the delay. */
    | { kind: 'deferred'; delayMs: number }
    | { kind: 'retry'; delayMs: number; error: string }
    /** The run is over without success: last attempt used, 410 (`disabled`), or a cause a retry cannot fix. */
    | { kind: 'failed'; error: string; disabled?: boolean }
  ) & {
    /** Time from sending to the answer, when an HTTP attempt was made. */
    latencyMs?: number;
    /** What the attempt's log line names: the event and the request (and trace) that caused it. */
    about?: { eventId: string; event: string; requestId: string | null; traceId: string | null };
  };

type WebhookConfig = Config['webhook'];

/** Which run of a delivery an attempt belongs to, and its number in that run (from 1). */
export interface AttemptRun {
  attemptNo: number;
  /** A job of its own: its id must be the job id of the delivery's current run. */
  jobId?: string;
  /**
   * In a batch job: the run (generation) and attempt count the relay queued the delivery with. An attempt
   * recorded since means a retry job of its own now carries the delivery.
   */
  queued?: { generation: number; attempts: number };
  /**
   * Called with the delay before a retry is recorded: a batched delivery queues its retry job there, so a
   * recorded retry always has a job to carry it (a crash in between costs at most an extra attempt).
   */
  beforeRetryRecorded?: (delayMs: number) => Promise<void>;
  /**
   * Waits for this process' turn to send (a permit of WEBHOOK_CONCURRENCY, the subscriber's share) once the
   * delivery is known to need an attempt, so reading and recording never hold a turn. Resolves with what to
   * call once the answer is in, or with a delay when the delivery must wait (outcome `deferred`).
   */
  turn?: () => Promise<{ done: () => void } | { deferMs: number }>;
}

/** Signing keys kept per process: an attempt neither decrypts its subscription's secret again nor rebuilds its key. */
const SIGNING_KEYS_KEPT = 1_000;

/** A delivery whose tenant's write position could not be stored is tried again after this (not an attempt). */
const POSITION_RETRY_MS = 1_000;

/** Disables a subscription whose receiver answered 410 Gone (audited and announced by the caller's service). */
export type DisableGone = (subscriptionId: string, reason: string) => Promise<unknown>;

/**
 * One delivery attempt: sign, POST, record. Rules: any 2xx succeeds; 410 fails the run and disables
 * the subscription; every other answer, a timeout or a connection error is retried with backoff until
 * the last attempt (4xx included: a receiver answering 401/404 during a deploy or a key rotation
 * usually recovers; docs/adr/0038-webhook-delivery-and-retry-rules.md). A refused address or an unreadable
 * secret fails at once.
 */
export class WebhookDeliveryService {
  readonly repository: DeliveryRepository;
  /** Signing keys by the sealed secret they were opened from. */
  private readonly signingKeys = new Map<string, KeyObject>();
  /** The HTTP client and the broker connections of every attempt. */
  readonly senders: DestinationSenders;
  /** Whether an event's tenant is a sandbox (its bodies say so); the flag is kept once read. */
  private readonly tenants: Pick<TenantsService, 'isSandbox'>;

  constructor(
    db: Database,
    private readonly config: Pick<WebhookConfig, 'timeoutMs' | 'maxAttempts' | 'backoffBaseMs' | 'allowPrivateUrls'>,
    private readonly secrets: SecretBox,
    private readonly disableGone: DisableGone,
    /** The subscriber's order and pace (none: every delivery goes at once). */
    private readonly gate?: Pick<SubscriberGate, 'heldBack' | 'paced'>,
    /** With read replicas: the tenants' write positions, raised before a receiver hears of an event. */
    private readonly tenantWrites?: Pick<TenantWrites, 'afterWrite'> | null,
    /** The writer of `edi` subscriptions' documents (the webhook worker gives the EDI library's). */
    documents?: DocumentDestination,
  ) {
    this.repository = new DeliveryRepository(db);
    this.tenants = new TenantsService(db);
    this.senders = new DestinationSenders(
      { timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivateUrls },
      secrets,
      documents,
    );
  }

  /** Closes the broker connections (the worker's close). */
  close(): Promise<void> {
    return this.senders.close();
  }

  async attempt(deliveryId: string, run: AttemptRun): Promise<AttemptOutcome> {
    const work = await this.repository.load(deliveryId);
    if (!work) return { kind: 'skipped', reason: 'delivery no longer exists' };
    const stale = staleRun(work, run);
    if (stale) return { kind: 'skipped', reason: stale };
    if (work.status !== 'pending') return { kind: 'skipped', reason: `delivery already ${work.status}` };
    const about = { eventId: work.eventId, event: work.event, requestId: work.requestId, traceId: work.traceId };
    if (!work.active) return { ...(await this.failWithoutAttempt(work, 'subscription is disabled')), about };

    const keys: KeyObject[] = [];
    try {
      keys.push(this.signingKey(work.secretSealed));
      if (work.previousSecretSealed) keys.push(this.signingKey(work.previousSecretSealed));
    } catch {
      return {
        ...(await this.failWithoutAttempt(
          work,
          'subscription secret cannot be read (its key is not in SECRETS_ENCRYPTION_KEYS)',
        )),
        about,
      };
    }
    // An EDI destination is a mailbox in this database: no address to check.
    const refusal =
      work.destinationKind === 'edi'
        ? null
        : this.refuseAddress(work.destinationKind === 'http' ? work.url : brokerHostUrl(work.url));
    if (refusal) return { ...(await this.failWithoutAttempt(work, refusal)), about };
    const sandbox = await this.fromSandbox(work);
    const heldMs = (await this.gate?.heldBack(work)) ?? 0;
    if (heldMs > 0) return { kind: 'deferred', delayMs: heldMs };
    if (!(await this.tenantReadsEvent(work))) return { kind: 'deferred', delayMs: POSITION_RETRY_MS };
    const turn = await run.turn?.();
    if (turn && 'deferMs' in turn) return { kind: 'deferred', delayMs: turn.deferMs };
    // The pace is asked once the turn is held: what it admits is sent now, not after a wait for a permit.
    let pace: Pace | null | undefined;
    try {
      pace = await this.gate?.paced(work);
    } catch (error) {
      turn?.done();
      throw error;
    }
    if (pace && pace.waitMs > 0) {
      turn?.done();
      return { kind: 'deferred', delayMs: pace.waitMs };
    }

    const body = versionedWebhookBody(
      {
        id: work.eventId,
        event: work.event,
        timestamp: work.occurredAt.toISOString(),
        sequence: work.sequence,
        sandbox,
        data: work.data,
      },
      work.apiVersion,
    );
    const headers = webhookHeaders(keys, work.eventId, Math.floor(Date.now() / 1000), body);
    const started = performance.now();
    let result: Sent | undefined;
    let failure: { message: string; code?: string } | undefined;
    try {
      // The trace of the work that committed the event goes on to the subscriber (delivery-trace.ts).
      result = await sendInEventTrace(work, headers, run.attemptNo, (traced) => this.senders.send(work, body, traced));
    } catch (error) {
      failure = describeError(error);
    } finally {
      turn?.done();
    }
    // The send counts against the rate until a second after its answer (a lost Redis only loosens the pace).
    if (pace && 'answered' in pace) await pace.answered().catch(() => undefined);
    const latencyMs = performance.now() - started;
    return { ...(await this.settle(work, run, latencyMs, result, failure)), latencyMs, about };
  }

  /**
   * Whether the event's tenant reads at least this event's state from here on: its write position is raised
   * to the primary's current one before the receiver hears of it. The event has committed (the relay fans out
   * committed events only), so a read that follows the delivery, by any caller of the tenant and through any
   * gateway, waits for a replica that replayed it or reads the primary. False when the position could not be
   * stored (Redis away): the delivery waits rather than tell of what a read might not show.
   */
  private async tenantReadsEvent(work: DeliveryWork): Promise<boolean> {
    if (!this.tenantWrites) return true;
    const tenantId = work.data.tenantId;
    try {
      await this.tenantWrites.afterWrite(typeof tenantId === 'string' ? tenantId : ACROSS_TENANTS);
      return true;
    } catch {
      return false;
    }
  }

  /** An event of a sandbox tenant says so at the top of its body; the tenant is the one its data names. */
  private async fromSandbox(work: DeliveryWork): Promise<boolean> {
    const tenantId = work.data.tenantId;
    return typeof tenantId === 'string' && this.tenants.isSandbox(tenantId);
  }

  private signingKey(sealed: string): KeyObject {
    let key = this.signingKeys.get(sealed);
    if (key === undefined) {
      key = webhookSigningKey(this.secrets.open(sealed));
      if (this.signingKeys.size >= SIGNING_KEYS_KEPT) this.signingKeys.clear();
      this.signingKeys.set(sealed, key);
    }
    return key;
  }

  private async settle(
    work: DeliveryWork,
    run: AttemptRun,
    latencyMs: number,
    result: Sent | undefined,
    failure: { message: string; code?: string } | undefined,
  ): Promise<AttemptOutcome> {
    const base = {
      deliveryId: work.id,
      generation: work.generation,
      latencyMs,
      statusCode: result?.statusCode ?? null,
      responseBody: result?.snippet ?? null,
    };
    if (result && (result.statusCode === null || (result.statusCode >= 200 && result.statusCode < 300))) {
      await this.repository.record({ ...base, error: null, status: 'succeeded', nextAttemptAt: null });
      return { kind: 'succeeded', statusCode: result.statusCode };
    }
    const error = result ? `HTTP ${result.statusCode}` : failure!.message;
    if (result?.statusCode === 410) {
      // Disabled before the attempt is recorded: if the process dies in between, the job's retry finds the
      // subscription disabled and ends the delivery without sending again.
      await this.disableGone(work.subscriptionId, `subscriber answered 410 Gone at ${new Date().toISOString()}`);
      await this.repository.record({ ...base, error, status: 'failed', nextAttemptAt: null });
      return { kind: 'failed', error: `${error}: subscription disabled`, disabled: true };
    }
    if (failure?.code === 'EBLOCKEDADDRESS' || run.attemptNo >= this.config.maxAttempts) {
      await this.repository.record({ ...base, error, status: 'failed', nextAttemptAt: null });
      return { kind: 'failed', error };
    }
    const retryAfterMs = parseRetryAfter(result?.headers['retry-after']);
    const delayMs = backoffDelay(run.attemptNo, this.config.backoffBaseMs, retryAfterMs);
    await run.beforeRetryRecorded?.(delayMs);
    await this.repository.record({
      ...base,
      error,
      retryAfterMs: retryAfterMs ?? null,
      status: 'pending',
      nextAttemptAt: new Date(Date.now() + delayMs),
    });
    return { kind: 'retry', delayMs, error };
  }

  private async failWithoutAttempt(work: DeliveryWork, error: string): Promise<AttemptOutcome> {
    await this.repository.fail(work.id, work.generation, error);
    return { kind: 'failed', error };
  }

  /** The SSRF check for hosts given as addresses; names are checked by the lookup when connecting. */
  private refuseAddress(rawUrl: string): string | null {
    if (this.config.allowPrivateUrls) return null;
    let url: URL;
    try {
      url = parseWebhookUrl(rawUrl, { allowPrivate: false, requireHttps: false });
    } catch {
      return 'subscription URL is not valid';
    }
    const literal = literalAddress(url);
    return literal && isBlockedAddress(literal) ? `address ${literal} is not allowed` : null;
  }
}

/** Why an attempt does not belong to the delivery's current run, or null when it does. */
function staleRun(work: DeliveryWork, run: AttemptRun): string | null {
  if (run.queued) {
    if (work.generation !== run.queued.generation) return 'job belongs to an earlier run of the delivery';
    if (work.attempts !== run.queued.attempts) return 'a later attempt carries the delivery';
    return null;
  }
  return deliveryJobId(work) !== run.jobId ? 'job belongs to an earlier run of the delivery' : null;
}

function describeError(error: unknown): { message: string; code?: string } {
  const { code, message, name } = error as { code?: string; message?: string; name?: string };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') return { message: 'timeout', code: 'ETIMEDOUT' };
  return { message: code ? `${code}: ${message ?? 'request failed'}` : (message ?? 'request failed'), code };
}
