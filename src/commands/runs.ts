// The run code of the request-making commands: one lazy import, so that esbuild makes one chunk of it
// (a chunk boundary, not a pass-through: imported folder by folder, a one-page `leads` run loaded 30
// files instead of 22; docs/performance.md). Code that only some runs need has imports of its own.
export { runApi } from './api/run.js';
export { runAuthLogin, runAuthLogout, runAuthStatus } from './auth/run.js';
export {
  runConfigGet,
  runConfigList,
  runConfigPath,
  runConfigProfiles,
  runConfigRemoveProfile,
  runConfigSet,
  runConfigUnset,
} from './config/run.js';
export { runList } from './list/run.js';
export { runSearch } from './search/run.js';
export { runUsage } from './usage/run.js';
