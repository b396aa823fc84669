import { within } from '../lifecycle/index.js';

/** What the registry needs of a BullMQ queue: its own Prometheus export. */
export interface ExportingQueue {
  exportPrometheusMetrics(globalVariables?: Record<string, string>): Promise<string>;
}

const EXPORT_TIMEOUT_MS = 2_000;

/**
 * BullMQ's own export of each queue (`bullmq_job_count{queue,state}`, `bullmq_job_completed_total`,
 * `bullmq_job_failed_total`), read from Redis when Prometheus scrapes, never on a request's path.
 * Each queue's text repeats the HELP and TYPE lines, which Prometheus refuses to read twice for one
 * family, so the texts are merged family by family. A queue that does not answer in time is left out
 * of this scrape rather than failing it.
 */
export async function exportQueueMetrics(queues: ExportingQueue[]): Promise<string> {
  const texts = await Promise.all(
    queues.map((queue) => within(queue.exportPrometheusMetrics(), EXPORT_TIMEOUT_MS).catch(() => '')),
  );
  return mergeExpositions(texts);
}

/** Merges Prometheus text expositions so each metric family appears once, with one HELP and one TYPE. */
export function mergeExpositions(texts: string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  const familyOf = (name: string) => {
    let family = families.get(name);
    if (!family) families.set(name, (family = { header: [], samples: [] }));
    return family;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const comment = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (comment) {
        const family = familyOf(comment[2]!);
        if (!family.header.some((existing) => existing.startsWith(`# ${comment[1]} `))) family.header.push(line);
        continue;
      }
      if (line.startsWith('#')) continue;
      familyOf(/^[^{\s]+/.exec(line)![0]).samples.push(line);
    }
  }
  return [...families.values()].flatMap((family) => [...family.header, ...family.samples]).join('\n');
}
