export { runSeed } from './seed.js';
export { prepareDatabase } from './prepare-database.js';
export { migrations } from './migrations.js';
export { waitForSchema, type WaitForSchemaOptions } from './wait-for-schema.js';
