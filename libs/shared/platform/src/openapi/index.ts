export { joiToJsonSchema, type JsonSchema } from './json-schema.js';
export {
  buildOpenApi,
  IDEMPOTENCY_KEY_PARAMETER,
  openApiPath,
  type DocumentedRoute,
  type OpenApiSpec,
  type OperationExtras,
  type RouteAnswer,
  type RouteParameter,
} from './document.js';
