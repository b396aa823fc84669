export { runSeed } from './seed.js';
export { prepareDatabase } from './prepare-database.js';
