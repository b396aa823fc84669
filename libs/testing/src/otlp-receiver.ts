import { createServer, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** One span as an OTLP exporter sent it, whichever encoding it used. */
export interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
}

/** An OTLP/HTTP trace receiver a test starts: what the apps' exporters sent, decoded. */
export interface OtlpReceiver {
  /** The base URL to set as OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans(): ExportedSpan[];
  /** The content types of the export requests received (application/json, application/x-protobuf). */
  contentTypes(): string[];
  close(): Promise<void>;
}

// The part of opentelemetry-proto's trace service a test reads; fields left out are skipped by the decoder.
const PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  repeated KeyValue attributes = 9; repeated Link links = 13;
}
message Link { bytes trace_id = 1; bytes span_id = 2; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
`;
const ExportRequest = protobuf.parse(PROTO, { keepCase: false }).root.lookupType('ExportTraceServiceRequest');

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpRequest {
  resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

function valueOf(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return (
    value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue)
  );
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/** OTLP/JSON writes ids as hex; protobuf as bytes, which the decoder's toObject turns into hex here. */
function decode(body: Buffer, contentType: string): OtlpRequest {
  if (contentType.startsWith('application/json')) return JSON.parse(body.toString('utf8')) as OtlpRequest;
  const message = ExportRequest.decode(body);
  const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
  const plain = ExportRequest.toObject(message, { longs: String, bytes: Array, defaults: false }) as {
    resourceSpans?: Array<{
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: Array<{
        spans?: Array<
          Omit<OtlpSpan, 'traceId' | 'spanId' | 'parentSpanId' | 'links'> & {
            traceId: number[];
            spanId: number[];
            parentSpanId?: number[];
            links?: Array<{ traceId: number[]; spanId: number[] }>;
          }
        >;
      }>;
    }>;
  };
  return {
    resourceSpans: plain.resourceSpans?.map((resourceSpans) => ({
      resource: resourceSpans.resource,
      scopeSpans: resourceSpans.scopeSpans?.map((scope) => ({
        spans: scope.spans?.map((span) => ({
          ...span,
          traceId: hex(Uint8Array.from(span.traceId)),
          spanId: hex(Uint8Array.from(span.spanId)),
          parentSpanId: span.parentSpanId?.length ? hex(Uint8Array.from(span.parentSpanId)) : undefined,
          links: span.links?.map((link) => ({
            traceId: hex(Uint8Array.from(link.traceId)),
            spanId: hex(Uint8Array.from(link.spanId)),
          })),
        })),
      })),
    })),
  };
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

/** Starts a receiver on a free local port that accepts OTLP/HTTP traces in JSON and in protobuf. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ExportedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      const contentType = String(request.headers['content-type'] ?? '');
      contentTypes.push(contentType);
      for (const resourceSpans of decode(body, contentType).resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              service,
              traceId: span.traceId.toLowerCase(),
              spanId: span.spanId.toLowerCase(),
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId.toLowerCase() } : {}),
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((link) => ({
                traceId: link.traceId.toLowerCase(),
                spanId: link.spanId.toLowerCase(),
              })),
            });
      }
      // An empty ExportTraceServiceResponse: `{}` in JSON, no bytes in protobuf.
      const json = contentType.startsWith('application/json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    contentTypes: () => [...contentTypes],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
