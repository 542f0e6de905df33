// What leadctl says about a failure, in the same words wherever it is said (stderr, an MCP tool error):
// `leadctl: <what happened>` and, where it helps, a second line with what to do.
import { LeadError } from '../api/errors.js';

export function errorLines(error: unknown): string[] {
  if (error instanceof LeadError) {
    return error.hint ? [`leadctl: ${error.message}`, error.hint] : [`leadctl: ${error.message}`];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [`leadctl: unexpected error: ${message}`];
}
