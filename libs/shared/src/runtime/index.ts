export { openRuntime, prepareDatabase, type Runtime } from './runtime.js';
