/** The portal's overview: figures read across capabilities. */
export * from './overview/index.js';
