/**
 * Which tracing a process runs, from the standard OpenTelemetry variables. Read by the bootstrap before
 * anything else is loaded, so it imports nothing: with no endpoint set this check is all tracing costs.
 */

/** The OTLP protocols the exporter speaks (OTEL_EXPORTER_OTLP_PROTOCOL). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
/** The sampler when OTEL_TRACES_SAMPLER is unset: a caller's sampled trace is always followed, others sampled by ratio. */
export const DEFAULT_SAMPLER = 'parentbased_traceidratio';
/** The ratio of traces started here that are kept when OTEL_TRACES_SAMPLER_ARG is unset. */
export const DEFAULT_SAMPLE_RATIO = 0.1;
/** The processes tracing names: the service's three apps. */
export const TRACED_APPS = ['gateway', 'ingest-worker', 'webhook-worker'] as const;
export type TracedApp = (typeof TRACED_APPS)[number];

export interface TracingSettings {
  /** The process' role, and the default service name. */
  app: TracedApp;
  serviceName: string;
}

type Env = Record<string, string | undefined>;

/**
 * The app a process runs: `apps/<app>/dist/main.js` started directly (or forked by the launcher), or the
 * launcher started for one app (`tools/start.mjs <app>`). The launcher running all three, a migration and
 * the other tools are not traced.
 */
export function tracedApp(argv: readonly string[]): TracedApp | undefined {
  const script = (argv[1] ?? '').replaceAll('\\', '/');
  const direct = /\/apps\/([a-z-]+)\/dist\/main\.js$/.exec(script)?.[1];
  const named = script.endsWith('/tools/start.mjs') ? argv[2] : direct;
  return TRACED_APPS.find((app) => app === named);
}

/** Tracing is on when an OTLP endpoint is set and the SDK is not disabled; undefined: off. */
export function tracingSettings(env: Env, argv: readonly string[]): TracingSettings | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  const app = tracedApp(argv);
  if (!app) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (protocol && !(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be one of ${OTLP_PROTOCOLS.join(', ')}, not "${protocol}"`);
  return { app, serviceName: env.OTEL_SERVICE_NAME || app };
}

/** The sampler variables the SDK reads, with this service's default in place of OpenTelemetry's (always on). */
export function samplerDefaults(env: Env): Env {
  if (env.OTEL_TRACES_SAMPLER) return {};
  return {
    OTEL_TRACES_SAMPLER: DEFAULT_SAMPLER,
    ...(env.OTEL_TRACES_SAMPLER_ARG ? {} : { OTEL_TRACES_SAMPLER_ARG: String(DEFAULT_SAMPLE_RATIO) }),
  };
}
