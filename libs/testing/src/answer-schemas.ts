import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;

interface DocumentedOperation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** The parts of an OpenAPI 3.1 document an answer is checked against. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentedOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** One real answer of a call: what the check needs of it. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  /** The Content-Type without its parameters. */
  mediaType: string;
  body: unknown;
}

const require = createRequire(import.meta.url);
// ajv is CommonJS whose default export is the class; its type declarations describe the ES module form.
const Ajv2020: typeof AjvClass = require('ajv/dist/2020');
const addFormats: (ajv: AjvClass) => AjvClass = require('ajv-formats');

const COMPONENTS = '#/components/schemas/';
/** An absolute id per component, so a component's own references resolve from it too. */
const COMPONENT_ID = 'https://openapi.invalid/components/';
const isNode = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document's `$ref`s to its components as ids ajv knows each component by. */
function withComponentIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withComponentIds);
  if (!isNode(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENTS)
        ? `${COMPONENT_ID}${child.slice(COMPONENTS.length)}`
        : withComponentIds(child),
    ]),
  );
}

/**
 * A check of real answers against one OpenAPI document, by ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses it)
 * in strict mode with every format checked: for `METHOD /path` of the document and an answer, the problems
 * found (none: the answer is what the document says). A status or media type the operation does not declare
 * is a problem too.
 */
export function answerValidator(document: OpenApiDocument): (operation: string, answer: Answer) => string[] {
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }));
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    ajv.addSchema(withComponentIds(schema) as Schema, `${COMPONENT_ID}${name}`);
  const compiled = new Map<string, ValidateFunction>();
  return (operation, answer) => {
    const [method, path] = operation.split(' ') as [string, string];
    const where = `${operation} → ${answer.status} (${answer.method} ${answer.path})`;
    const responses = document.paths[path]?.[method.toLowerCase()]?.responses;
    if (!responses) return [`${where}: the document has no such operation`];
    const declared = responses[String(answer.status)];
    if (!declared) return [`${where}: status not declared (${JSON.stringify(answer.body).slice(0, 300)})`];
    const media = declared.content?.[answer.mediaType];
    if (!media) return [`${where}: media type ${answer.mediaType || 'none'} not declared`];
    if (answer.mediaType !== 'application/json') return typeof answer.body === 'string' ? [] : [`${where}: not text`];
    if (!media.schema) return [`${where}: no schema of the body`];
    const key = `${operation} ${answer.status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(withComponentIds(media.schema) as Schema);
      compiled.set(key, validate);
    }
    if (validate(answer.body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: ${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  };
}

const TYPED = ['type', 'const', 'enum', '$ref', 'anyOf', 'oneOf', 'allOf'];

/** The places in `schema` that say nothing of what is there: an object without properties, a value untyped. */
function untypedIn(schema: unknown, where: string, freeForm: ReadonlySet<string>, found: string[]): void {
  if (!isNode(schema)) return;
  const name = where.slice(where.lastIndexOf('.') + 1);
  if (freeForm.has(name)) return;
  if (!TYPED.some((keyword) => keyword in schema)) found.push(`${where}: no type`);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const closedOrTyped = isNode(schema.properties) || isNode(schema.additionalProperties);
  if (types.includes('object') && !closedOrTyped) found.push(`${where}: an object without properties`);
  for (const [property, child] of Object.entries(isNode(schema.properties) ? schema.properties : {}))
    untypedIn(child, `${where}.${property}`, freeForm, found);
  untypedIn(schema.items, `${where}[]`, freeForm, found);
  if (isNode(schema.additionalProperties)) untypedIn(schema.additionalProperties, `${where}.*`, freeForm, found);
  for (const keyword of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[keyword]))
      (schema[keyword] as unknown[]).forEach((child, index) => untypedIn(child, `${where}|${index}`, freeForm, found));
}

function referencesIn(schema: unknown, names: Set<string>): void {
  for (const [, name] of JSON.stringify(schema ?? {}).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) names.add(name!);
}

/**
 * Every answer of the document, and every component they name, as a list of what is not typed: an object
 * schema without properties, a schema without a type. Properties named in `freeForm` may hold anything.
 */
export function answerSchemaProblems(document: OpenApiDocument, freeForm: ReadonlySet<string> = new Set()): string[] {
  const found: string[] = [];
  const named = new Set<string>();
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(item))
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        if (schema) untypedIn(schema, `${method.toUpperCase()} ${path} ${status}`, freeForm, found);
        referencesIn(schema, named);
      }
  // A Set iterates the names added while it is iterated: the components the named ones name are walked too.
  for (const name of named) {
    const component = document.components?.schemas?.[name];
    untypedIn(component, `components.${name}`, freeForm, found);
    referencesIn(component, named);
  }
  return found;
}
