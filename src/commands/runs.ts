// The run code of the request-making commands, one lazy import for the build to make one chunk of.
// Not a folder's pass-through: it is the chunk boundary. Imported one folder at a time, esbuild gave
// each set of run modules sharing code a chunk of its own, and a one-page `leads` run loaded 30 files
// instead of 22 (docs/performance.md: each file costs start-up time). Heavy code that only some runs
// need (checkpoints, batch searches, sync, conf, ora, exceljs, the sandbox, completion scripts,
// the MCP server) stays behind imports of its own.
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
