export { DocumentNumbers, formatNumber, type DocumentKind } from './document-numbers.js';
