export * from './analyze.js';
export * from './diagnostic.js';
export * from './document.js';
export * from './dialect.js';
export * from './ir.js';
export * from './text.js';
export { normalize } from './normalize.js';
export { parseDuration } from './duration.js';
