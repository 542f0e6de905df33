// The run code of the request-making commands: one lazy import, so that esbuild makes one chunk of it
// (a chunk boundary, not a pass-through: imported folder by folder, a one-page `leads` run loaded 30
// files instead of 22; docs/performance.md). Code that only some runs need has imports of its own.
export * from './api/run.js';
export * from './auth/run.js';
export * from './config/run.js';
export * from './list/run.js';
export * from './search/run.js';
export * from './usage/run.js';
