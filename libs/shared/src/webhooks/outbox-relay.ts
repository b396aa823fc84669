import pg from 'pg';
import type { Transaction } from 'sequelize';
import type { Database } from '../db/index.js';
import { EVENTS_CHANNEL } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { FilterCache, type EventFilter } from './event-filter.js';
import type { DeliveryEnqueuer, RecheckPass, UnqueuedRow } from './delivery-enqueuer.js';
// Serialises fan-out passes across relays, so feed positions become visible in the order they are given.
import { FAN_OUT_LOCK_KEY } from './delivery.repository.js';

/** After a reconnection, how long other processes get to find the new primary before a second full recheck. */
const RECHECK_AGAIN_AFTER_READY_MS = 10_000;

/** What the fan-out statement returns: its deliveries, and the pairs a filter decides with what deciding needs. */
interface FanOutResult {
  events: number;
  deliveries: UnqueuedRow[];
  /** [eventId, subscriptionId] of the filtered subscriptions the event otherwise reaches. */
  filtered: Array<[string, string]>;
  eventData: Record<string, unknown> | null;
  filters: Record<string, EventFilter> | null;
}

export interface RelayPass {
  events: number;
  deliveries: number;
  enqueued: number;
}

export interface RelayOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  /** When set, the relay LISTENs for append notifications and wakes at once instead of at the next poll. */
  listenDatabaseUrl?: string;
  /** How often pending deliveries queued that long ago are looked up in Redis again (default 60 s). */
  recheckIntervalMs?: number;
}

/**
 * The outbox relay (runs in the webhook worker). Each pass:
 * 1. fan-out, PostgreSQL only: claims committed, unrelayed events, writes one delivery row per matching
 *    subscription (unique per event and subscription; a subscription with a filter only for the events its
 *    filter matches, tested here between the statement and the commit), gives each event its feed position and marks it
 *    relayed, in one statement. It needs no Redis, so events keep flowing into deliveries during an outage.
 *    The deliveries it writes are added to BullMQ in the same transaction (written as enqueued, so each row
 *    is written once); when Redis does not take them they are left unqueued and the fan-out commits anyway.
 * 2. enqueue: moves delivery rows still unqueued (Redis was away, a redelivery, a recovery) into BullMQ
 *    (DeliveryEnqueuer).
 * 3. recheck, now and then: pending deliveries whose job Redis lost are queued again. Every pending one is
 *    looked up when the relay starts and whenever its Redis connection comes (back) up, since a failover,
 *    a restart without data or FLUSHALL may have dropped jobs; the rest of the time, those queued more
 *    than recheckIntervalMs ago, once per interval.
 * Events committed out of sequence order are simply picked up by a later pass: nothing is read by cursor.
 */
export class OutboxRelay {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private nudged = false;
  private listener: pg.Client | undefined;
  private lastErrorLog = 0;
  private recheckAll = true;
  private lastRecheck = Date.now();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly recheckIntervalMs: number;
  private readonly filters = new FilterCache();

  constructor(
    private readonly db: Database,
    private readonly enqueuer: DeliveryEnqueuer,
    private readonly logger: Logger,
    private readonly options: RelayOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 500;
    this.recheckIntervalMs = options.recheckIntervalMs ?? 60_000;
  }

  /** Fan-out of up to one batch of events, and the enqueue of the deliveries it writes. */
  async fanOut(): Promise<RelayPass> {
    return this.db.sequelize.transaction(async (transaction) => {
      const [[lock]] = (await this.db.sequelize.query('SELECT pg_try_advisory_xact_lock(:key) AS locked', {
        replacements: { key: FAN_OUT_LOCK_KEY },
        transaction,
      })) as [Array<{ locked: boolean }>, unknown];
      if (!lock?.locked) return { events: 0, deliveries: 0, enqueued: 0 }; // another relay is fanning out right now
      const enqueue = this.enqueuer.addsAtFanOut;
      const [[pass]] = (await this.db.sequelize.query(
        `WITH claimed AS (
           SELECT id, seq, tenant_id, event, data, document_key, sequence FROM events
            WHERE relayed_at IS NULL
            ORDER BY seq
            LIMIT :batch
            FOR UPDATE SKIP LOCKED
         ), positioned AS (
           SELECT id, nextval('events_feed_position_seq') AS position FROM (SELECT id FROM claimed ORDER BY seq) ordered
         ), matching AS (
           SELECT c.id AS event_id, s.id AS subscription_id, s.filter,
                  CASE WHEN s.ordered THEN c.document_key END AS document_key,
                  CASE WHEN s.ordered THEN c.sequence END AS sequence
             FROM claimed c
             JOIN webhook_subscriptions s
               ON s.active
              AND (s.tenant_id IS NULL OR s.tenant_id = c.tenant_id)
              AND (c.event = ANY (s.events) OR ('*' = ANY (s.events) AND c.event <> 'webhook.disabled'))
         ), inserted AS (
           INSERT INTO webhook_deliveries (event_id, subscription_id, next_attempt_at, enqueued_at, document_key, sequence)
           SELECT event_id, subscription_id, now(), CASE WHEN :enqueue THEN now() END, document_key, sequence
             FROM matching WHERE filter IS NULL
           ON CONFLICT (event_id, subscription_id) DO NOTHING
           RETURNING id, event_id AS "eventId", subscription_id AS "subscriptionId", generation, attempts, priority
         ), filtered AS (
           SELECT event_id, subscription_id FROM matching WHERE filter IS NOT NULL
         ), marked AS (
           UPDATE events e SET relayed_at = now(), feed_position = p.position
             FROM positioned p WHERE e.id = p.id
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM marked)::int AS events,
                (SELECT coalesce(json_agg(inserted), '[]'::json) FROM inserted) AS deliveries,
                (SELECT coalesce(json_agg(json_build_array(event_id, subscription_id)), '[]'::json) FROM filtered)
                  AS "filtered",
                (SELECT json_object_agg(c.id, c.data) FROM claimed c WHERE c.id IN (SELECT event_id FROM filtered))
                  AS "eventData",
                (SELECT json_object_agg(s.id, s.filter) FROM webhook_subscriptions s
                  WHERE s.id IN (SELECT subscription_id FROM filtered)) AS filters`,
        { replacements: { batch: this.batchSize, enqueue }, transaction },
      )) as [Array<FanOutResult>, unknown];
      const { events } = pass!;
      const deliveries = byEvent(pass!.deliveries, await this.insertFiltered(pass!, enqueue, transaction));
      if (!enqueue || deliveries.length === 0) return { events, deliveries: deliveries.length, enqueued: 0 };
      if (await this.enqueuer.addFannedOut(deliveries))
        return { events, deliveries: deliveries.length, enqueued: deliveries.length };
      await this.db.sequelize.query('UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id IN (:ids)', {
        replacements: { ids: deliveries.map((row) => row.id) },
        transaction,
      });
      return { events, deliveries: deliveries.length, enqueued: 0 };
    });
  }

  /**
   * The deliveries of filtered subscriptions: each (event, subscription) pair the statement found is tested
   * against the subscription's filter here, and only the matches are written, in the fan-out's transaction.
   */
  private async insertFiltered(pass: FanOutResult, enqueue: boolean, transaction: Transaction): Promise<UnqueuedRow[]> {
    if (pass.filtered.length === 0) return [];
    const matches: Array<[string, string]> = [];
    for (const [eventId, subscriptionId] of pass.filtered) {
      const test = this.filters.testerFor(subscriptionId, pass.filters![subscriptionId]!);
      if (test(pass.eventData![eventId])) matches.push([eventId, subscriptionId]);
    }
    if (matches.length === 0) return [];
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_deliveries (event_id, subscription_id, next_attempt_at, enqueued_at, document_key, sequence)
       SELECT m.event_id, m.subscription_id, now(), CASE WHEN :enqueue THEN now() END,
              CASE WHEN s.ordered THEN e.document_key END, CASE WHEN s.ordered THEN e.sequence END
         FROM json_to_recordset(CAST(:matches AS json)) AS m(event_id uuid, subscription_id uuid)
         JOIN events e ON e.id = m.event_id
         JOIN webhook_subscriptions s ON s.id = m.subscription_id
       ON CONFLICT (event_id, subscription_id) DO NOTHING
       RETURNING id, event_id AS "eventId", subscription_id AS "subscriptionId", generation, attempts, priority`,
      {
        replacements: {
          enqueue,
          matches: JSON.stringify(
            matches.map(([eventId, subscriptionId]) => ({ event_id: eventId, subscription_id: subscriptionId })),
          ),
        },
        transaction,
      },
    )) as [UnqueuedRow[], unknown];
    return rows;
  }

  /** One pass: fan-out, then enqueue. Fan-out runs even when the enqueue fails (Redis down). */
  async runOnce(): Promise<RelayPass> {
    const fanned = await this.fanOut();
    const enqueued = await this.enqueuer.enqueue(this.batchSize);
    return { ...fanned, enqueued: fanned.enqueued + enqueued };
  }

  /** Looks up pending deliveries in Redis (all of them, or those queued more than the interval ago). */
  async recheck(all: boolean): Promise<RecheckPass> {
    const pass = await this.enqueuer.recheck(this.batchSize, all ? 0 : this.recheckIntervalMs);
    if (pass.lost > 0) this.logger.warn({ deliveries: pass.lost }, 'deliveries unknown to Redis were queued again');
    return pass;
  }

  /**
   * `redis` is the enqueuer's connection: each time it is ready, every pending delivery is looked up, and
   * once more a little later, for jobs that other processes added to a lost primary before they moved too.
   */
  start(redis?: { on(event: 'ready', listener: () => void): unknown }): void {
    if (this.running) return;
    this.running = true;
    redis?.on('ready', () => {
      this.recheckEverything();
      setTimeout(() => this.recheckEverything(), RECHECK_AGAIN_AFTER_READY_MS).unref();
    });
    this.loop = this.run();
  }

  private recheckEverything(): void {
    if (!this.running) return;
    this.recheckAll = true;
    this.nudge();
  }

  /** Stops after the pass in progress; closes the listener. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  private async run(): Promise<void> {
    let lastListenAttempt = 0;
    while (this.running) {
      if (this.options.listenDatabaseUrl && !this.listener && Date.now() - lastListenAttempt > 5_000) {
        lastListenAttempt = Date.now();
        await this.listen(this.options.listenDatabaseUrl);
      }
      try {
        let pass: RelayPass;
        do {
          pass = await this.runOnce();
        } while (this.running && (pass.events === this.batchSize || pass.enqueued >= this.batchSize));
        await this.recheckWhenDue();
      } catch (error) {
        this.logThrottled(error);
      }
      await this.sleep();
    }
  }

  private async recheckWhenDue(): Promise<void> {
    const all = this.recheckAll;
    if (!all && Date.now() - this.lastRecheck < this.recheckIntervalMs) return;
    this.recheckAll = false;
    try {
      await this.recheck(all);
      this.lastRecheck = Date.now();
    } catch (error) {
      if (all) this.recheckAll = true;
      throw error;
    }
  }

  private sleep(): Promise<void> {
    if (this.nudged || !this.running) {
      this.nudged = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      timer = setTimeout(done, this.pollIntervalMs);
      this.wake = done;
    });
  }

  /** Runs the next pass now (a notification arrived) instead of at the next poll. */
  nudge(): void {
    if (this.wake) this.wake();
    else this.nudged = true;
  }

  private async listen(databaseUrl: string): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', () => {
      if (this.listener === client) this.listener = undefined;
    });
    client.on('end', () => {
      if (this.listener === client) this.listener = undefined;
    });
    client.on('notification', () => this.nudge());
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      this.logThrottled(error);
      await client.end().catch(() => undefined);
    }
  }

  private logThrottled(error: unknown): void {
    if (Date.now() - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = Date.now();
    this.logger.warn({ err: error }, 'outbox relay pass failed; events wait in PostgreSQL and are retried');
  }
}

/**
 * The fan-out's deliveries, filtered ones beside the unfiltered ones of the same event: batch jobs then mix
 * subscriptions as they do without filters, instead of carrying the filtered subscriptions' deliveries last
 * and together (where each subscription's share of a worker would bound the batch).
 */
function byEvent(unfiltered: UnqueuedRow[], filtered: UnqueuedRow[]): UnqueuedRow[] {
  if (filtered.length === 0) return unfiltered;
  const position = new Map<string, number>();
  for (const row of [...unfiltered, ...filtered])
    if (!position.has(row.eventId)) position.set(row.eventId, position.size);
  return [...unfiltered, ...filtered].sort((a, b) => position.get(a.eventId)! - position.get(b.eventId)!);
}
