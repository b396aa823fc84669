import { callerTraceId, forwardedTraceHeaders, traceIdOf, tracingStarted } from './trace-context.js';
import { samplerDefaults, tracedApp, tracingSettings } from './settings.js';

describe('W3C trace context, read and written by OpenTelemetry', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

  it("when a caller's traceparent is well formed, its trace id is the request's", () => {
    expect(callerTraceId({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).toBe(traceId);
    expect(callerTraceId({ traceparent: `00-${traceId}-00f067aa0ba902b7-00` })).toBe(traceId);
  });

  it('when a later version adds fields, the trace id is still read', () => {
    expect(callerTraceId({ traceparent: `cc-${traceId}-00f067aa0ba902b7-01-what-the-future-holds` })).toBe(traceId);
  });

  it.each([
    ['version ff', `ff-${traceId}-00f067aa0ba902b7-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-${traceId}-0000000000000000-01`],
    ['a short trace id', `00-${traceId.slice(1)}-00f067aa0ba902b7-01`],
    ['extra fields on version 00', `00-${traceId}-00f067aa0ba902b7-01-extra`],
    ['garbage', 'not a trace'],
  ])('when the header has %s, it is ignored, not refused', (_case, header) => {
    expect(callerTraceId({ traceparent: header })).toBeUndefined();
  });

  it('with tracing off, a subscriber is sent the trace id under a span id of the service', () => {
    expect(tracingStarted()).toBe(false);
    const forwarded = forwardedTraceHeaders(traceId)!;
    expect(forwarded.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(traceIdOf(forwarded)).toBe(traceId);
    expect(forwardedTraceHeaders(traceId)!.traceparent).not.toBe(forwarded.traceparent);
  });
});

describe('tracing settings', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };

  it('names the app a process runs, started directly or by the launcher for one app', () => {
    expect(tracedApp(['node', '/srv/apps/gateway/dist/main.js'])).toBe('gateway');
    expect(tracedApp(['node', '/srv/tools/start.mjs', 'webhook-worker'])).toBe('webhook-worker');
    expect(tracedApp(['node', '/srv/tools/start.mjs'])).toBeUndefined();
    expect(tracedApp(['node', '/srv/tools/start.mjs', 'migrate'])).toBeUndefined();
  });

  it('without an endpoint, or disabled, tracing is off', () => {
    const argv = ['node', '/srv/apps/gateway/dist/main.js'];
    expect(tracingSettings({}, argv)).toBeUndefined();
    expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, argv)).toBeUndefined();
    expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, argv)).toBeUndefined();
  });

  it('with an endpoint, the service is named after the app unless OTEL_SERVICE_NAME says otherwise', () => {
    const argv = ['node', '/srv/apps/ingest-worker/dist/main.js'];
    expect(tracingSettings(endpoint, argv)).toEqual({ app: 'ingest-worker', serviceName: 'ingest-worker' });
    expect(tracingSettings({ ...endpoint, OTEL_SERVICE_NAME: 'wms-ingest' }, argv)?.serviceName).toBe('wms-ingest');
  });

  it('refuses a protocol the exporter does not speak', () => {
    const argv = ['node', '/srv/apps/gateway/dist/main.js'];
    expect(() => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' }, argv)).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json, grpc/,
    );
  });

  it('samples by parent, then one in ten, unless the sampler variables say otherwise', () => {
    expect(samplerDefaults({})).toEqual({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    expect(samplerDefaults({ OTEL_TRACES_SAMPLER_ARG: '1' })).toEqual({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    });
    expect(samplerDefaults({ OTEL_TRACES_SAMPLER: 'always_on' })).toEqual({});
  });
});
