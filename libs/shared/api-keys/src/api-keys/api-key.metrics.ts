import { Counter } from 'prom-client';

/** The API-key guard's metric; the names are an interface (dashboards and alerts rely on them). */
export const apiKeyRefusals = new Counter({
  name: 'wms_api_key_refusals_total',
  help: 'Integration requests the API-key guard refused, by reason (missing, invalid, throttled, scope, ip, origin, rate_limited)',
  labelNames: ['reason'] as const,
  registers: [],
});
