import type { Config } from '../config/index.js';
import { childTraceparent } from '../context/index.js';
import type { Database } from '../db/index.js';
import { deliveryJobId } from '../queue/index.js';
import { backoffDelay, parseRetryAfter } from './backoff.js';
import { DeliveryRepository, type DeliveryWork } from './delivery.repository.js';
import { postWebhook, type SendResult } from './http-sender.js';
import { SecretBox } from './secret-box.js';
import { webhookHeaders } from './signing.js';
import { isBlockedAddress, literalAddress, parseWebhookUrl } from './url-guard.js';

/** What one attempt came to; the queue processor turns it into BullMQ's terms. */
export type AttemptOutcome = (
  | { kind: 'succeeded'; statusCode: number }
  /** Nothing to do: the delivery is gone, finished, or belongs to a newer run than this job. */
  | { kind: 'skipped'; reason: string }
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

/** Disables a subscription whose receiver answered 410 Gone (audited and announced by the caller's service). */
export type DisableGone = (subscriptionId: string, reason: string) => Promise<unknown>;

/**
 * One delivery attempt: sign, POST, record. Rules: any 2xx succeeds; 410 fails the run and disables
 * the subscription; every other answer, a timeout or a connection error is retried with backoff until
 * the last attempt (4xx included: a receiver answering 401/404 during a deploy or a key rotation
 * usually recovers; see docs/decisions.md). A refused address or an unreadable secret fails at once.
 */
export class WebhookDeliveryService {
  readonly repository: DeliveryRepository;

  constructor(
    db: Database,
    private readonly config: Pick<WebhookConfig, 'timeoutMs' | 'maxAttempts' | 'backoffBaseMs' | 'allowPrivateUrls'>,
    private readonly secrets: SecretBox,
    private readonly disableGone: DisableGone,
  ) {
    this.repository = new DeliveryRepository(db);
  }

  /** `attemptNo` counts from 1 within this run (BullMQ's attemptsMade + 1). */
  async attempt(deliveryId: string, jobId: string, attemptNo: number): Promise<AttemptOutcome> {
    const work = await this.repository.load(deliveryId);
    if (!work) return { kind: 'skipped', reason: 'delivery no longer exists' };
    if (deliveryJobId(work) !== jobId)
      return { kind: 'skipped', reason: 'job belongs to an earlier run of the delivery' };
    if (work.status !== 'pending') return { kind: 'skipped', reason: `delivery already ${work.status}` };
    const about = { eventId: work.eventId, event: work.event, requestId: work.requestId, traceId: work.traceId };
    if (!work.active) return { ...(await this.failWithoutAttempt(work, 'subscription is disabled')), about };

    const secrets: string[] = [];
    try {
      secrets.push(this.secrets.open(work.secretSealed));
      if (work.previousSecretSealed) secrets.push(this.secrets.open(work.previousSecretSealed));
    } catch {
      return {
        ...(await this.failWithoutAttempt(
          work,
          'subscription secret cannot be read (its key is not in SECRETS_ENCRYPTION_KEYS)',
        )),
        about,
      };
    }
    const refusal = this.refuseAddress(work.url);
    if (refusal) return { ...(await this.failWithoutAttempt(work, refusal)), about };

    const body = JSON.stringify({
      id: work.eventId,
      event: work.event,
      timestamp: work.occurredAt.toISOString(),
      data: work.data,
    });
    const headers = webhookHeaders(secrets, work.eventId, Math.floor(Date.now() / 1000), body);
    // The trace the causing request came with goes on to the subscriber, from a span of our own.
    if (work.traceId) headers.traceparent = childTraceparent(work.traceId);
    const started = performance.now();
    let result: SendResult | undefined;
    let failure: { message: string; code?: string } | undefined;
    try {
      result = await postWebhook(work.url, body, headers, {
        timeoutMs: this.config.timeoutMs,
        allowPrivate: this.config.allowPrivateUrls,
      });
    } catch (error) {
      failure = describeError(error);
    }
    const latencyMs = performance.now() - started;
    return { ...(await this.settle(work, attemptNo, latencyMs, result, failure)), latencyMs, about };
  }

  private async settle(
    work: DeliveryWork,
    attemptNo: number,
    latencyMs: number,
    result: SendResult | undefined,
    failure: { message: string; code?: string } | undefined,
  ): Promise<AttemptOutcome> {
    const base = {
      deliveryId: work.id,
      generation: work.generation,
      latencyMs,
      statusCode: result?.statusCode ?? null,
      responseBody: result?.snippet ?? null,
    };
    if (result && result.statusCode >= 200 && result.statusCode < 300) {
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
    if (failure?.code === 'EBLOCKEDADDRESS' || attemptNo >= this.config.maxAttempts) {
      await this.repository.record({ ...base, error, status: 'failed', nextAttemptAt: null });
      return { kind: 'failed', error };
    }
    const delayMs = backoffDelay(attemptNo, this.config.backoffBaseMs, parseRetryAfter(result?.headers['retry-after']));
    await this.repository.record({ ...base, error, status: 'pending', nextAttemptAt: new Date(Date.now() + delayMs) });
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

function describeError(error: unknown): { message: string; code?: string } {
  const { code, message, name } = error as { code?: string; message?: string; name?: string };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') return { message: 'timeout', code: 'ETIMEDOUT' };
  return { message: code ? `${code}: ${message ?? 'request failed'}` : (message ?? 'request failed'), code };
}
