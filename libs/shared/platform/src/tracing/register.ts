/**
 * The tracing bootstrap, loaded before the app with Node's `--import` (tools/entrypoint.sh, the test
 * harness, the bench): instrumentation has to hook express, pg and ioredis before the app imports them. With
 * no OTLP endpoint set it only reads the environment, and nothing else is loaded or started.
 */
import { samplerDefaults, tracingSettings } from './settings.js';

const settings = tracingSettings(process.env, process.argv);
if (settings) {
  Object.assign(process.env, samplerDefaults(process.env));
  const { startTracing } = await import('./sdk.js');
  await startTracing(settings);
}
