/** V8 start-up flags of each app (tools/node-flags.mjs). */
export declare const NODE_FLAGS: Record<'gateway' | 'ingest-worker' | 'webhook-worker', string[]>;
