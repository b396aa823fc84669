/** The typed client's types (tools/client-types.mjs). */
export declare const CLIENT_TYPES_FILE: string;
export declare function renderClientTypes(document: Record<string, unknown>): Promise<string>;
