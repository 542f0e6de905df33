// The request-making commands' run code as one lazy import, so esbuild makes one chunk: folder by folder, a
// one-page `leads` run loaded 30 files instead of 22 (docs/performance.md).
export * from './api/run.js';
export * from './auth/run.js';
export * from './config/run.js';
export * from './list/run.js';
export * from './search/run.js';
export * from './usage/run.js';
