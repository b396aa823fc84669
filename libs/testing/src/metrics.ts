/** Reads a Prometheus text exposition the way a test needs it: one number per series. */
export interface Scrape {
  status: number;
  text: string;
  /** The value of the series `name{labels}` (labels matched as given, others ignored); 0 when absent. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every metric family name the exposition declares (its TYPE lines). */
  families(): Set<string>;
}

export function parseExposition(text: string, status = 200): Scrape {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return {
    status,
    text,
    value(name, labels = {}) {
      return samples
        .filter((sample) => sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v))
        .reduce((sum, sample) => sum + sample.value, 0);
    },
    families() {
      return new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));
    },
  };
}

/** GET <url>/metrics with the bearer token when given. */
export async function scrapeMetrics(baseUrl: string, token?: string): Promise<Scrape> {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return parseExposition(await response.text(), response.status);
}

/** Names PromQL uses that are not metrics. */
const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/** The metric names one PromQL expression reads (functions, label matchers and ranges left aside). */
export function promqlMetricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b([a-zA-Z_:][\w:]*)\b(?!\s*\()/g)]
    .map((match) => match[1]!)
    .filter((name) => !PROMQL_WORDS.has(name) && !/^\d/.test(name));
}
