export * from './versions.js';
export * from './version-change.js';
export * from './render.js';
export * from './exact-json.js';
export * from './deprecation.js';
export * from './policy.js';
export {
  QUANTITY_FIELDS,
  QUANTITY_DECIMALS,
  quantitiesAsDecimalStrings,
  toDecimalString,
  exactNumberText,
  type QuantityFormat,
} from './changes/quantities-as-decimal-strings.js';
export * from './openapi.js';
export { isExactNumber, type RawJson } from './raw-json.js';
