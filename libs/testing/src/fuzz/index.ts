/**
 * The fuzzing helpers, apart from the rest of the test kit: fast-check is large, and only the specs that
 * generate requests load it (`@wms/testing/fuzz`).
 */
export * from './joi-arbitraries.js';
export * from './endpoints.js';
