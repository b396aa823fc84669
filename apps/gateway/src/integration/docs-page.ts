/** The parts of a JSON Schema the page shows. */
interface Schema {
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  type?: string | string[];
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** The parts of an OpenAPI document the page shows. */
interface Operation {
  summary?: string;
  description?: string;
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  /** OpenAPI 3.1's top-level webhooks: what the service POSTs to subscribers, one entry per event. */
  webhooks?: Record<string, { post?: Operation }>;
  components?: { schemas?: Record<string, Schema> };
  'x-error-codes'?: { status: number; code: string; meaning: string }[];
}

const escape = (value: unknown) =>
  String(value).replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

function typeOf(schema: Schema): string {
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if (schema.enum) return schema.enum.map((value: unknown) => JSON.stringify(value)).join(' | ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  const type = Array.isArray(schema.type)
    ? schema.type.join(' | ')
    : (schema.type ?? (schema.const !== undefined ? JSON.stringify(schema.const) : 'any'));
  return schema.format ? `${type} (${schema.format})` : type;
}

function constraints(schema: Schema): string {
  const parts: string[] = [];
  const limits = [
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
  ] as const;
  for (const [key, label] of limits) {
    if (schema[key] !== undefined) parts.push(`${label} ${schema[key]}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

function schemaTable(name: string, schema: Schema): string {
  const properties = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(properties)
    .map(([field, child]) => {
      const nested = child.type === 'object' && child.properties ? schemaTable(`${name}.${field}`, child) : '';
      return (
        `<tr><td><code>${escape(field)}</code></td><td>${escape(typeOf(child))}</td><td>${required.has(field) ? 'yes' : ''}</td>` +
        `<td>${escape([child.description, constraints(child)].filter(Boolean).join('; '))}${nested}</td></tr>`
      );
    })
    .join('');
  return (
    `<table><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr>${rows}</table>` +
    (schema.additionalProperties === false ? '<p class="note">Unknown fields are refused.</p>' : '')
  );
}

/** One section per event a subscriber may receive, with the table of its `data`. */
function webhookSections(document: OpenApiDocument): string {
  return Object.entries(document.webhooks ?? {})
    .map(([name, item]) => {
      const data = item.post?.requestBody?.content?.['application/json']?.schema?.properties?.data;
      return (
        `<section id="event-${escape(name)}"><h3><code>${escape(name)}</code></h3><p>${escape(item.post?.description ?? '')}</p>` +
        (data ? `<p><code>data</code>:</p>${schemaTable(name, data)}` : '') +
        '</section>'
      );
    })
    .join('');
}

/** A readable page of the OpenAPI document: endpoints, their bodies and answers, webhooks, schemas, error codes. */
export function renderDocsPage(document: OpenApiDocument, openApiPath: string): string {
  const base = document.servers?.[0]?.url ?? '';
  const endpoints = Object.entries(document.paths)
    .flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => {
        const body = operation.requestBody?.content?.['application/json']?.schema;
        const parameters = (operation.parameters ?? [])
          .map((parameter) => (parameter.$ref ? 'Idempotency-Key (header)' : `${parameter.name} (${parameter.in})`))
          .join(', ');
        const responses = Object.entries(operation.responses ?? {})
          .map(([status, response]) => `<li><b>${escape(status)}</b> ${escape(response.description ?? '')}</li>`)
          .join('');
        return (
          `<section><h3><span class="method">${method.toUpperCase()}</span> <code>${escape(base + path)}</code></h3>` +
          `<p>${escape(operation.summary ?? '')}</p>${operation.description ? `<p>${escape(operation.description)}</p>` : ''}` +
          (parameters ? `<p>Parameters: ${escape(parameters)}</p>` : '') +
          (body ? `<p>Body: <a href="#schema-${escape(typeOf(body))}">${escape(typeOf(body))}</a></p>` : '') +
          `<ul>${responses}</ul></section>`
        );
      }),
    )
    .join('');
  const schemas = Object.entries(document.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3>${schemaTable(name, schema)}</section>`,
    )
    .join('');
  const errors = (document['x-error-codes'] ?? [])
    .map(
      (error) =>
        `<tr><td>${escape(error.status)}</td><td><code>${escape(error.code)}</code></td><td>${escape(error.meaning)}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info?.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.method{background:#225;color:#fff;padding:0 .4rem;border-radius:3px}.note{color:#666;font-size:90%}code{font-size:95%}</style></head>
<body><h1>${escape(document.info?.title)}</h1><p>${escape(document.info?.description ?? '')}</p>
<p>Machine-readable: <a href="${escape(openApiPath)}">${escape(openApiPath)}</a> (OpenAPI ${escape(document.openapi)}).
Authenticate with <code>X-API-Key: &lt;key&gt;</code> or <code>Authorization: ApiKey &lt;key&gt;</code>.</p>
<h2>Endpoints</h2>${endpoints}<h2>Webhooks</h2><p>Each event is POSTed as <code>{ id, event, timestamp, data }</code>
with the Standard Webhooks headers <code>webhook-id</code> (the event id, the same on every retry and replay),
<code>webhook-timestamp</code> and <code>webhook-signature</code>. During a secret rotation's grace period the signature
header carries two signatures, the new secret's first: accept the message when either verifies. Any 2xx is delivered;
410 disables the subscription; anything else is retried with backoff. The list with JSON Schemas:
<code>GET /api/v1/webhooks/event-types</code>.</p>${webhookSections(document)}<h2>Error codes</h2><p>Errors of the integration handlers answer
<code>{ status: "error", code, message, details?, requestId }</code>.</p><table><tr><th>HTTP</th><th>code</th><th>meaning</th></tr>${errors}</table>
<h2>Schemas</h2>${schemas}</body></html>`;
}
