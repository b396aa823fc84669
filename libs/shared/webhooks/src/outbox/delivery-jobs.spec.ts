import { randomUUID } from 'node:crypto';
import {
  AttemptPermits,
  WEBHOOK_DELIVERY_BATCH,
  WEBHOOK_DELIVERY_BATCH_JOB,
  WEBHOOK_DELIVERY_JOB,
  deliveryIdsOf,
  deliveryJobId,
} from '../delivery/index.js';
import { deliveryJobsOf } from './delivery-enqueuer.js';

const row = (priority = 0) => ({
  id: randomUUID(),
  eventId: randomUUID(),
  subscriptionId: randomUUID(),
  generation: 0,
  attempts: 0,
  priority,
});

describe('delivery jobs of a relay pass', () => {
  it('when many live deliveries are queued, they go in batch jobs of at most the batch size, each delivery once', () => {
    const rows = Array.from({ length: 2 * WEBHOOK_DELIVERY_BATCH + 20 }, () => row());

    const jobs = deliveryJobsOf(rows);

    expect(jobs.map((job) => job.name)).toEqual([
      WEBHOOK_DELIVERY_BATCH_JOB,
      WEBHOOK_DELIVERY_BATCH_JOB,
      WEBHOOK_DELIVERY_BATCH_JOB,
    ]);
    expect(jobs.flatMap((job) => deliveryIdsOf(job.data))).toEqual(rows.map((entry) => entry.id));
    expect(new Set(jobs.map((job) => job.opts?.jobId)).size).toBe(3);
    expect(deliveryJobsOf(rows).map((job) => job.opts?.jobId)).toEqual(jobs.map((job) => job.opts?.jobId));
  });

  it('when a delivery is alone or carries a priority, it is a job of its own named by its run', () => {
    const lone = row();
    const recovered = [row(10), row(10)];

    const jobs = deliveryJobsOf([lone, ...recovered]);

    expect(jobs).toHaveLength(3);
    expect(jobs.every((job) => job.name === WEBHOOK_DELIVERY_JOB)).toBe(true);
    expect(jobs.map((job) => job.opts?.jobId).sort()).toEqual([lone, ...recovered].map(deliveryJobId).sort());
    expect(jobs.filter((job) => job.opts?.priority === 10)).toHaveLength(2);
  });
});

describe('attempt permits', () => {
  it('when more attempts ask than there are permits, the others wait in order and a permit given back twice counts once', async () => {
    const permits = new AttemptPermits(2);
    const order: number[] = [];
    const first = await permits.acquire();
    const second = await permits.acquire();
    const waiting = [1, 2].map((n) => permits.acquire().then((release) => (order.push(n), release)));

    first();
    first();
    const third = await waiting[0]!;

    expect(permits.inUse).toBe(2);
    expect(order).toEqual([1]);
    second();
    (await waiting[1]!)();
    third();
    expect(order).toEqual([1, 2]);
    expect(permits.inUse).toBe(0);
  });
});
