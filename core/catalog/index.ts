// Static catalogs of the language: builtins, providers, expression callables and roots.
export * from './builtins.js';
export * from './providers.js';
export * from './cel.js';
