import { QUANTITY_FIELDS, QUANTITY_DECIMALS } from './changes/quantities-as-decimal-strings.js';
import { NEWEST_API_VERSION, VERSION_HEADER, quantityFormatOf, type ApiVersion } from './versions.js';

type Node = Record<string, unknown>;

const DECIMAL_PATTERN = `^-?\\d+\\.\\d{${QUANTITY_DECIMALS}}$`;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Copies `node`, rewriting each quantity property schema typed as a number with `rewrite`. */
function mapQuantitySchemas(node: unknown, rewrite: (schema: Node) => Node): unknown {
  if (Array.isArray(node)) return node.map((item) => mapQuantitySchemas(item, rewrite));
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isNode(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [
          name,
          QUANTITY_FIELDS.has(name) && isNode(schema) && schema.type === 'number'
            ? rewrite(schema)
            : mapQuantitySchemas(schema, rewrite),
        ]),
      );
    } else out[key] = mapQuantitySchemas(value, rewrite);
  }
  return out;
}

const decimalString = ({ description }: Node): Node => ({
  type: 'string',
  pattern: DECIMAL_PATTERN,
  ...(description !== undefined && { description }),
  examples: ['12.5000'],
});

const stringOrNumber = ({ description }: Node): Node => ({
  anyOf: [{ type: 'number' }, { type: 'string', pattern: `^-?\\d+(\\.\\d{1,${QUANTITY_DECIMALS}})?$` }],
  ...(description !== undefined && { description }),
});

/**
 * A JSON Schema of something the service sends (an answer, a webhook body, a broker message) as `version` sends
 * it: each quantity a decimal string where the version writes them so, a number before.
 */
export function sentSchemaForVersion<T>(schema: T, version: ApiVersion): T {
  return quantityFormatOf(version) === 'decimal' ? (mapQuantitySchemas(schema, decimalString) as T) : schema;
}

/**
 * The integration API's OpenAPI document as `version` serves it (the code builds it in numbers): requests take
 * a quantity as a number or a decimal string in every version; answers and webhook bodies send it as the
 * version does. The document names its version and the `Wms-Version` header.
 */
export function openApiDocumentForVersion(document: Node, version: ApiVersion = NEWEST_API_VERSION): Node {
  const answers = (part: unknown) => sentSchemaForVersion(part, version);
  const paths = Object.fromEntries(
    Object.entries((document.paths as Node | undefined) ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Node).map(([method, operation]) => {
          if (!isNode(operation)) return [method, operation];
          const { requestBody, responses, ...rest } = operation;
          return [
            method,
            {
              ...rest,
              ...(requestBody !== undefined && { requestBody: mapQuantitySchemas(requestBody, stringOrNumber) }),
              ...(responses !== undefined && { responses: answers(responses) }),
            },
          ];
        }),
      ),
    ]),
  );
  const info = (document.info as Node | undefined) ?? {};
  return {
    ...document,
    info: {
      ...info,
      'x-api-version': version,
      description:
        `${String(info.description ?? '')}\n\nServed in the dated version ${version}; send \`${VERSION_HEADER}\` to choose another, or read \`?version=\` of this document.`.trim(),
    },
    paths,
    ...(document.webhooks !== undefined && { webhooks: answers(document.webhooks) }),
    ...(document.components !== undefined && {
      components: mapQuantitySchemas(document.components, stringOrNumber),
    }),
  };
}
