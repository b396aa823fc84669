import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import type { IncomingMessage, ClientRequest } from 'node:http';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { Span } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { markTracingStarted } from './trace-context.js';
import type { TracingSettings } from './settings.js';

/** Requests that are not work: probes and scrapes, several a second per process. */
const UNTRACED_PATHS = /^\/(?:health(?:\/|$)|metrics$)/;

/** The service's version, from the root package.json (the image copies it beside the apps). */
function serviceVersion(): string {
  try {
    const file = new URL('../../../../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * A subscriber's URL may carry its own token in the query or user part: a client span names the origin and
 * path only.
 */
function withoutQuery(span: Span, request: ClientRequest | IncomingMessage): void {
  if (!('getHeader' in request)) return;
  const host = request.host ?? request.getHeader('host');
  span.setAttribute('url.full', `${request.protocol}//${String(host)}${request.path.split('?')[0]}`);
}

function instrumentations() {
  return [
    // No header is recorded (API keys, bearer tokens and cookies travel in headers), and no body is read.
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ''),
      requestHook: withoutQuery,
    }),
    // The route template names the server span; each request handler is a span, middleware and routers not.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    // Statements with their placeholders only (values are bound, never recorded); only inside a traced
    // request or job, so the pollers' statements between requests start no traces of their own.
    new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true, enhancedDatabaseReporting: false }),
    // The command name only: arguments hold keys, job data and cached records.
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
  ];
}

let sdk: NodeSDK | undefined;

/**
 * Registers the ESM loader hook that lets the instrumentations wrap what the app imports, then starts
 * OpenTelemetry's Node SDK: traces only (metrics stay Prometheus', logs stay pino's), exported over OTLP as
 * the standard variables say (endpoint, protocol, headers, sampler); the apps' shutdown exports what is
 * left (`flushTracing`).
 */
export async function startTracing(settings: TracingSettings): Promise<void> {
  if (sdk) return;
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  sdk = new NodeSDK({
    serviceName: settings.serviceName,
    resource: defaultResource().merge(
      resourceFromAttributes({
        'service.namespace': 'wms',
        'service.version': serviceVersion(),
        'wms.process.role': settings.app,
      }),
    ),
    instrumentations: instrumentations(),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const started = sdk;
  markTracingStarted(() => started.shutdown());
  await waitForAllMessagesAcknowledged();
}
