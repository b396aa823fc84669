export { openRuntime, type Runtime } from './runtime.js';
