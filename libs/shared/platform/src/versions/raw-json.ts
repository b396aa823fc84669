/**
 * JSON.rawJSON (Node 21+, ES2026): a value JSON.stringify writes as the given text, here a number with the
 * exact digits PostgreSQL holds. TypeScript's libraries up to ES2023 do not declare it yet.
 */
export interface RawJson {
  readonly rawJSON: string;
}

declare global {
  interface JSON {
    rawJSON(text: string): RawJson;
    isRawJSON(value: unknown): value is RawJson;
  }
}

/** Whether `value` is a number already written as its exact digits (see toNumber of the quantities change). */
export function isExactNumber(value: unknown): value is RawJson {
  return JSON.isRawJSON(value);
}
