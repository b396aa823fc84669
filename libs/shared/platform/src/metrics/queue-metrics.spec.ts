import { mergeExpositions } from './queue-metrics.js';

describe('merging the queues’ Prometheus exports', () => {
  const exportOf = (queue: string, waiting: number) =>
    [
      '# HELP bullmq_job_count Number of jobs in the queue by state',
      '# TYPE bullmq_job_count gauge',
      `bullmq_job_count{queue="${queue}", state="waiting"} ${waiting}`,
      '# HELP bullmq_job_completed_total Total number of completed jobs',
      '# TYPE bullmq_job_completed_total counter',
      `bullmq_job_completed_total{queue="${queue}"} 7`,
    ].join('\n');

  it('when two queues export the same families, each family appears once with every queue’s samples', () => {
    const merged = mergeExpositions([exportOf('ingest', 1), exportOf('webhook-delivery', 2)]);

    expect(merged.split('\n')).toEqual([
      '# HELP bullmq_job_count Number of jobs in the queue by state',
      '# TYPE bullmq_job_count gauge',
      'bullmq_job_count{queue="ingest", state="waiting"} 1',
      'bullmq_job_count{queue="webhook-delivery", state="waiting"} 2',
      '# HELP bullmq_job_completed_total Total number of completed jobs',
      '# TYPE bullmq_job_completed_total counter',
      'bullmq_job_completed_total{queue="ingest"} 7',
      'bullmq_job_completed_total{queue="webhook-delivery"} 7',
    ]);
  });

  it('when a queue did not answer (empty text), the others are still exported', () => {
    expect(mergeExpositions(['', exportOf('ingest', 3)])).toContain('state="waiting"} 3');
    expect(mergeExpositions(['', ''])).toBe('');
  });
});
