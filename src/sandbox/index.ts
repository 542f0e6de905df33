// The sandbox's public face: start a local Lead Data API v1 server (see server.ts).

export { HOSTILE_CATEGORIES, HOSTILE_NAMES } from './data.js';
export { PLAN_ALLOWANCES, SANDBOX_KEYS } from './keys.js';
export { startSandbox } from './server.js';
export type {
  HistoryEntry,
  Lead,
  RecordedRequest,
  RequestHook,
  SandboxHandle,
  SandboxKeys,
  SandboxOptions,
  SandboxPlan,
  SandboxVariant,
  SearchResult,
} from './types.js';
