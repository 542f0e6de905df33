// The run code of the commands, one module for the build to make one chunk of: an action imports its
// run function from here, so a request-making run loads its code as one file rather than as a dozen
// small chunks shared between lazy imports (each file costs start-up time: docs/performance.md).
// Code that only some runs need and that is heavy (checkpoints, batch searches, conf, ora,
// cli-table3, the sandbox, completion scripts, the MCP server) stays behind imports of its own.
export { runApi } from './api/run.js';
export { runAuthLogin, runAuthLogout } from './auth/run.js';
export { runAuthStatus } from './auth-run.js';
export { runConfigGet, runConfigList, runConfigPath, runConfigSet, runConfigUnset } from './config/run.js';
export { runConfigProfiles, runConfigRemoveProfile } from './config-profiles-run.js';
export { runList } from './list/run.js';
export { runSearch } from './search/run.js';
export { runUsage } from './usage/run.js';
