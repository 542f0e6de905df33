// What every tool runs on: one session's client, its caps and counts, and its own key mask and
// rejected-key hint (never the process's: a host may run several sessions).
import type { LeadClient } from '../api/client.js';
import type { UsageRecorder } from '../usage/recorder.js';
import type { RequestBudget } from './budget.js';
import type { Continuations } from './continuations.js';
import type { FailureContext } from './failure-text.js';
import type { ReportProgress } from './progress.js';
import type { RateLimitPause } from './rate-limit-pause.js';
import type { SavedLeads } from './saved-leads.js';
import type { SearchGate } from './search-gate.js';
import type { KeyMasker } from './tool-result.js';

export interface ToolDeps {
  client: LeadClient;
  budget: RequestBudget;
  searches: SearchGate;
  pause: RateLimitPause;
  usage: UsageRecorder;
  continuations: Continuations;
  savedLeads: SavedLeads;
  mask: KeyMasker;
  failure: FailureContext;
}

/** One tool call: its cancellation (the call's or the session's) and its progress notifications. */
export interface ToolCall {
  signal: AbortSignal;
  progress: ReportProgress;
}
