export { runSeed } from './seed.js';
export { prepareDatabase } from './prepare-database.js';
export { waitForSchema, type WaitForSchemaOptions } from './wait-for-schema.js';
