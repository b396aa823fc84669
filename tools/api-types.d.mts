/** The admin portal's API types (tools/api-types.mjs). */
export declare const API_TYPES_FILE: string;
export declare function renderApiTypes(
  document: Record<string, unknown>,
  options?: { file?: string; header?: string },
): Promise<string>;
