// What leadctl says about a failure, in the same words wherever it is said (stderr, an MCP tool error):
// `leadctl: <what happened>` and, where it helps, a second line with what to do.
import { AuthError, LeadError } from '../api/errors.js';

// A 401 is created deep in the client, which knows nothing of settings; the session that chose the key
// says here where it came from, so the hint names the source to fix (as the key mask in secrets.ts).
let rejectedKeyHint: string | undefined;

/** What to do about a rejected key, given where this run's key came from. */
export function explainRejectedKey(hint: string): void {
  rejectedKeyHint = hint;
}

export function errorLines(error: unknown): string[] {
  if (error instanceof LeadError) {
    const hint =
      error instanceof AuthError && error.status === 401 ? (rejectedKeyHint ?? error.hint) : error.hint;
    return hint ? [`leadctl: ${error.message}`, hint] : [`leadctl: ${error.message}`];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [`leadctl: unexpected error: ${message}`];
}
