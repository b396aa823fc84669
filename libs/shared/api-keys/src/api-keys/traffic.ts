import type { HourlyRollup } from './request-log.repository.js';

/**
 * One bucket of a key's traffic by outcome: the calls answered (and of them, those answered with status 400 or
 * above), and the calls refused before any route ran: by the rate limit (429), by the IP whitelist or allowed
 * origins (403).
 */
export interface TrafficPoint {
  at: Date;
  requests: number;
  errors: number;
  rateLimited: number;
  refused: number;
}

export interface KeyTraffic {
  /** The last 24 hours, one bucket per UTC hour, oldest first; the last bucket is the hour now running. */
  hourly: TrafficPoint[];
  /** The last 7 days, one bucket per UTC day, oldest first; the last bucket is today so far. */
  daily: TrafficPoint[];
}

/**
 * The key's figures over the daily series' 7 UTC days (the `24h` ones over the hourly series' 24 hours).
 * `requests` are the answered calls; errorRate and avgResponseTimeMs are of those.
 */
export interface KeyTotals {
  requests7d: number;
  requests24h: number;
  errorRate: number;
  avgResponseTimeMs: number;
  /** Calls the rate limit refused (429). */
  rateLimited: number;
  rateLimited24h: number;
  /** Calls the IP whitelist or the allowed origins refused (403). */
  refused: number;
  refused24h: number;
  /**
   * Answered calls over the 7 days by the dated API version that served them (`{"2026-11-21": 12}`): who
   * still calls a deprecated version.
   */
  requestsByVersion: Record<string, number>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function series(start: number, length: number, count: number, hours: HourlyRollup[]): TrafficPoint[] {
  const points = Array.from({ length: count }, (_, i) => ({
    at: new Date(start + i * length),
    requests: 0,
    errors: 0,
    rateLimited: 0,
    refused: 0,
  }));
  for (const hour of hours) {
    const index = Math.floor((hour.hour.getTime() - start) / length);
    const point = points[index];
    if (index < 0 || !point) continue;
    point.requests += hour.requests;
    point.errors += hour.errors;
    point.rateLimited += hour.rateLimited;
    point.refused += hour.refused;
  }
  return points;
}

const sum = (points: TrafficPoint[], field: 'requests' | 'rateLimited' | 'refused') =>
  points.reduce((total, point) => total + point[field], 0);

/**
 * A key's statistics from its hourly rollups: every bucket present, empty ones as zeros, so a chart needs no
 * gap filling; the totals are the sums of the series, so the figures and the charts always agree.
 */
export function keyTrafficOf(nowHour: Date, hours: HourlyRollup[]): KeyTraffic & KeyTotals {
  const hourStart = nowHour.getTime() - 23 * HOUR_MS;
  const dayStart = Math.floor(nowHour.getTime() / DAY_MS) * DAY_MS - 6 * DAY_MS;
  const hourly = series(hourStart, HOUR_MS, 24, hours);
  const daily = series(dayStart, DAY_MS, 7, hours);
  let errors = 0;
  let sumUs = 0;
  const requestsByVersion: Record<string, number> = {};
  for (const hour of hours) {
    if (hour.hour.getTime() < dayStart) continue;
    errors += hour.errors;
    sumUs += hour.responseTimeSumUs;
    for (const [version, count] of Object.entries(hour.versions))
      requestsByVersion[version] = (requestsByVersion[version] ?? 0) + count;
  }
  const requests7d = sum(daily, 'requests');
  return {
    requests7d,
    requests24h: sum(hourly, 'requests'),
    errorRate: requests7d === 0 ? 0 : errors / requests7d,
    avgResponseTimeMs: requests7d === 0 ? 0 : Math.round(sumUs / requests7d / 10) / 100,
    rateLimited: sum(daily, 'rateLimited'),
    rateLimited24h: sum(hourly, 'rateLimited'),
    refused: sum(daily, 'refused'),
    refused24h: sum(hourly, 'refused'),
    requestsByVersion,
    hourly,
    daily,
  };
}
