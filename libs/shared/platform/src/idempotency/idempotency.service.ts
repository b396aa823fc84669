import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'sequelize';
import type { Config } from '../config/index.js';
import { isConnectionLoss, type Database } from '../db/index.js';
import { AppError } from '../errors/index.js';
import { within } from '../lifecycle/index.js';
import { idempotencyOutcomes } from '../metrics/index.js';
import { IdempotencyRepository, type IdempotencyOwner } from './idempotency.repository.js';
import type { FingerprintPart, RequestFingerprint } from './request-fingerprint.js';

/** The request that holds an Idempotency-Key right now. */
export interface IdempotencyClaim {
  recordId: string;
  /**
   * One generation of the key: stays the same when a retry takes over from a dead request, so a bulk job keyed
   * by it is enqueued once.
   */
  claimId: string;
  token: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_progress' }
  /** `differs`: the parts of the request that differ from the first one's, null when its record cannot tell. */
  | { kind: 'mismatch'; differs: FingerprintPart[] | null };

/** How long past the bulk wait a claim is presumed alive before a retry may take it over. */
const LEASE_GRACE_MS = 5_000;
const MAX_KEY_LENGTH = 255;
/**
 * A 5xx answer waits this long at most for its key's release: the shortest Retry-After the service gives
 * (1 s), so the retry it invites finds the key free. Past it the release goes on after the answer.
 */
const RELEASE_HOLD_MS = 1_000;
/** Pauses between tries of a release that lost its connection: the pool drops the dead one and opens another. */
const RELEASE_PAUSES_MS = [0, 50, 100, 200, 400];
const RELEASE_PAUSE_MAX_MS = 1_000;

export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw AppError.validation('Request validation failed', [
      { path: 'Idempotency-Key', message: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters` },
    ]);
  }
  return key;
}

/**
 * Idempotency-Key records in PostgreSQL, per API key or user. A claim is one
 * atomic INSERT … ON CONFLICT: of concurrent requests with one key exactly one claims it. The answer is
 * stored with the claim's token, so a request that lost its claim can never overwrite another's answer;
 * single writes store it in the transaction of their write (the write and its answer commit together).
 */
export class IdempotencyService {
  private readonly repository: IdempotencyRepository;
  private readonly ttlSeconds: number;
  private readonly leaseMs: number;

  constructor(db: Database, config: Pick<Config, 'idempotencyTtlSeconds' | 'bulkSyncTimeoutMs'>) {
    this.repository = new IdempotencyRepository(db);
    this.ttlSeconds = config.idempotencyTtlSeconds;
    this.leaseMs = config.bulkSyncTimeoutMs + LEASE_GRACE_MS;
  }

  /** A key reused for another request (requestFingerprint) is refused: 409 IDEMPOTENCY_KEY_MISMATCH. */
  async claim(owner: IdempotencyOwner, key: string, fingerprint: RequestFingerprint): Promise<ClaimOutcome> {
    const outcome = await this.claimOnce(owner, key, fingerprint);
    if (outcome.kind !== 'claimed')
      idempotencyOutcomes.labels(outcome.kind === 'replay' ? 'replayed' : outcome.kind).inc();
    return outcome;
  }

  private async claimOnce(
    owner: IdempotencyOwner,
    key: string,
    fingerprint: RequestFingerprint,
  ): Promise<ClaimOutcome> {
    // The stored fingerprint an abandoned claim may be taken over from: this request's, or the same request's
    // in the form of an older record, once compared.
    let sameRequest = fingerprint.value;
    // A record can expire or lose its lease between our INSERT and our SELECT: then claim again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const claimed = await this.tryClaim(owner, key, fingerprint.value, sameRequest);
      if (claimed) return { kind: 'claimed', claim: claimed };
      const record = await this.repository.find(owner, key);
      if (!record || !record.live) continue;
      const differs = fingerprint.differences(record.fingerprint);
      if (differs === null || differs.length > 0) return { kind: 'mismatch', differs };
      if (record.state === 'completed')
        return { kind: 'replay', status: record.responseStatus!, body: record.responseBody! };
      if (record.leased) return { kind: 'in_progress' };
      sameRequest = record.fingerprint;
    }
    return { kind: 'in_progress' };
  }

  /**
   * Stores the answer of the claim's request. Pass the write's transaction to commit both together.
   * Returns false when the claim was lost (another request took it over after the lease ran out).
   */
  async complete(claim: IdempotencyClaim, status: number, body: string, transaction?: Transaction): Promise<boolean> {
    const stored = await this.repository.complete(claim.recordId, claim.token, { status, body }, transaction);
    if (stored) idempotencyOutcomes.labels('stored').inc();
    return stored;
  }

  /** Like complete, inside a write's transaction: a lost claim rolls the write back. */
  async completeInTransaction(
    claim: IdempotencyClaim,
    status: number,
    body: string,
    transaction: Transaction,
  ): Promise<void> {
    if (!(await this.complete(claim, status, body, transaction))) throw inProgressError();
  }

  /**
   * Gives the key back after a failure that is not stored (5xx): the same request may be retried at once.
   * The generation (claimId) is kept, so a bulk job already enqueued under it is found again, not doubled.
   * A 5xx often comes with a dead connection (a database switch), and so may its release: one that loses its
   * connection is tried again on another until the claim's lease would end anyway. The answer waits for the
   * first RELEASE_HOLD_MS of that; the tries go on after it, so a retry after the answer's Retry-After finds
   * the key free as soon as the database answers again, not a lease later. Rejects when the release failed
   * for another reason, or is still being tried after the hold.
   */
  async release(claim: IdempotencyClaim): Promise<void> {
    const released = this.releaseUntil(claim, Date.now() + this.leaseMs);
    // Past the hold, a failure is the caller's to log from the rejection below; the tries end on their own.
    released.catch(() => undefined);
    await within(released, RELEASE_HOLD_MS, () => new Error('the Idempotency-Key release is still being retried'));
  }

  private async releaseUntil(claim: IdempotencyClaim, deadline: number): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.repository.release(claim.recordId, claim.token);
        return;
      } catch (error) {
        if (!isConnectionLoss(error) || Date.now() >= deadline) throw error;
      }
      await sleep(RELEASE_PAUSES_MS[attempt] ?? RELEASE_PAUSE_MAX_MS, undefined, { ref: false });
    }
  }

  /** Deletes expired records, a bounded number per call. */
  async purgeExpired(limit = 1_000): Promise<number> {
    return this.repository.purgeExpired(limit);
  }

  /** A new claim of the key, or a take-over of an expired or abandoned one; null when the key is held or answered. */
  private async tryClaim(
    owner: IdempotencyOwner,
    key: string,
    fingerprint: string,
    sameRequest: string,
  ): Promise<IdempotencyClaim | null> {
    const token = randomUUID();
    const row = await this.repository.claim(owner, {
      key,
      fingerprint,
      sameRequest,
      token,
      leaseMs: this.leaseMs,
      ttlSeconds: this.ttlSeconds,
    });
    return row ? { recordId: row.id, claimId: row.claimId, token } : null;
  }
}

export function inProgressError(): AppError {
  return AppError.conflict('IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress');
}

/**
 * 409 IDEMPOTENCY_KEY_MISMATCH, naming what differs from the key's first request (`details`: one entry per
 * part, `path` being the part's name), when its record can tell.
 */
export function mismatchError(differs: FingerprintPart[] | null = null): AppError {
  const base = 'This Idempotency-Key was used with a different request';
  if (!differs || differs.length === 0) return AppError.conflict('IDEMPOTENCY_KEY_MISMATCH', base);
  const listed = differs.length === 1 ? differs[0] : `${differs.slice(0, -1).join(', ')} and ${differs.at(-1)}`;
  return new AppError(
    'IDEMPOTENCY_KEY_MISMATCH',
    `${base}: its ${listed} ${differs.length === 1 ? 'differs' : 'differ'}`,
    differs.map((part) => ({
      path: part,
      message: `The ${part} differs from the first request with this Idempotency-Key`,
    })),
  );
}
