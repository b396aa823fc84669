import pg from 'pg';
import type { Transaction } from 'sequelize';
import { boundedConnection, type Database, type DatabaseTarget, unitOfWork } from '@wms/platform';
import { EVENTS_CHANNEL } from '@wms/events';
import { PollLoop } from '@wms/platform';
import type { Logger } from '@wms/platform';
import type { DeliveryEnqueuer, RecheckPass } from './delivery-enqueuer.js';
import type { UnqueuedRow } from './outbox.repository.js';
import { FilterCache } from '../subscriptions/index.js';
import { OutboxRepository, type FanOutRows } from './outbox.repository.js';

/** After a reconnection, how long other processes get to find the new primary before a second full recheck. */
const RECHECK_AGAIN_AFTER_READY_MS = 10_000;

export interface RelayPass {
  events: number;
  deliveries: number;
  enqueued: number;
}

export interface RelayOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  /** When set, the relay LISTENs for append notifications and wakes at once instead of at the next poll. */
  listenDatabase?: DatabaseTarget;
  /** How often pending deliveries queued that long ago are looked up in Redis again (default 60 s). */
  recheckIntervalMs?: number;
}

/**
 * The outbox relay (runs in the webhook worker). Each pass:
 * 1. fan-out, PostgreSQL only: claims committed, unrelayed events, writes one delivery row per matching
 *    subscription (unique per event and subscription), gives each event its feed position and marks it
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
  private readonly loop: PollLoop;
  private readonly outbox: OutboxRepository;
  private listener: pg.Client | undefined;
  private lastListenAttempt = 0;
  private recheckAll = true;
  private lastRecheck = Date.now();
  private readonly batchSize: number;
  private readonly recheckIntervalMs: number;
  private readonly filters = new FilterCache();

  constructor(
    private readonly db: Database,
    private readonly enqueuer: DeliveryEnqueuer,
    private readonly logger: Logger,
    private readonly options: RelayOptions = {},
  ) {
    this.outbox = new OutboxRepository(db);
    this.loop = new PollLoop(() => this.pass(), {
      intervalMs: options.pollIntervalMs ?? 250,
      onError: (error) =>
        this.logger.warn({ err: error }, 'outbox relay pass failed; events wait in PostgreSQL and are retried'),
    });
    this.batchSize = options.batchSize ?? 500;
    this.recheckIntervalMs = options.recheckIntervalMs ?? 60_000;
  }

  /** Fan-out of up to one batch of events, and the enqueue of the deliveries it writes. */
  async fanOut(): Promise<RelayPass> {
    return unitOfWork(this.db, async (transaction) => {
      const enqueue = this.enqueuer.addsAtFanOut;
      const pass = await this.outbox.fanOut(this.batchSize, enqueue, transaction);
      if (!pass) return { events: 0, deliveries: 0, enqueued: 0 }; // another relay is fanning out right now
      const { events } = pass;
      const deliveries = byEvent(pass.deliveries, await this.insertFiltered(pass, enqueue, transaction));
      if (!enqueue || deliveries.length === 0) return { events, deliveries: deliveries.length, enqueued: 0 };
      if (await this.enqueuer.addFannedOut(deliveries))
        return { events, deliveries: deliveries.length, enqueued: deliveries.length };
      await this.outbox.markUnqueued(
        deliveries.map((row) => row.id),
        transaction,
      );
      return { events, deliveries: deliveries.length, enqueued: 0 };
    });
  }

  /**
   * The deliveries of filtered subscriptions: each (event, subscription) pair the statement found is tested
   * against the subscription's filter here, and only the matches are written, in the fan-out's transaction.
   */
  private async insertFiltered(pass: FanOutRows, enqueue: boolean, transaction: Transaction): Promise<UnqueuedRow[]> {
    if (pass.filtered.length === 0) return [];
    const matches: Array<[string, string]> = [];
    for (const [eventId, subscriptionId] of pass.filtered) {
      const test = this.filters.testerFor(subscriptionId, pass.filters![subscriptionId]!);
      if (test(pass.eventData![eventId])) matches.push([eventId, subscriptionId]);
    }
    if (matches.length === 0) return [];
    return this.outbox.insertDeliveries(matches, enqueue, transaction);
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
    if (this.loop.running) return;
    redis?.on('ready', () => {
      this.recheckEverything();
      setTimeout(() => this.recheckEverything(), RECHECK_AGAIN_AFTER_READY_MS).unref();
    });
    this.loop.start();
  }

  private recheckEverything(): void {
    if (!this.loop.running) return;
    this.recheckAll = true;
    this.nudge();
  }

  /** Stops after the pass in progress; closes the listener. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  /** Runs the next pass now (a notification arrived) instead of at the next poll. */
  nudge(): void {
    this.loop.wake();
  }

  /** One pass of the loop: passes back to back while they come back full, then the recheck when due. */
  private async pass(): Promise<void> {
    const { listenDatabase } = this.options;
    if (listenDatabase && !this.listener && Date.now() - this.lastListenAttempt > 5_000) {
      this.lastListenAttempt = Date.now();
      await this.listen(listenDatabase);
    }
    let pass: RelayPass;
    do {
      pass = await this.runOnce();
    } while (this.loop.running && (pass.events === this.batchSize || pass.enqueued >= this.batchSize));
    await this.recheckWhenDue();
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

  private async listen(database: DatabaseTarget): Promise<void> {
    // A connection of its own: LISTEN belongs to a session, and a pooled connection goes back to the pool.
    const client = new pg.Client(boundedConnection(database.databaseUrl, database, 'session'));
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
      this.loop.reportError(error);
      await client.end().catch(() => undefined);
    }
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
