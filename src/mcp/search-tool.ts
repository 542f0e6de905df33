// search_businesses: one POST /search, the results as data and a one-line summary.
import { formatCount } from '../ui/count.js';
import type { SearchInput } from './schemas.js';
import { successResult, type ToolDeps, type ToolResult } from './tool-result.js';

export async function runSearchTool(
  input: SearchInput,
  deps: ToolDeps,
  signal: AbortSignal,
): Promise<ToolResult> {
  const answer = await deps.client.search(
    {
      query: input.query,
      location: input.location,
      ...(input.radius === undefined ? {} : { radius: input.radius }),
    },
    { signal },
  );
  const n = answer.results.length;
  // The CLI's footer; the echoes come from the server, and successResult sanitizes the summary.
  const summary = `${formatCount(n)} ${n === 1 ? 'result' : 'results'} for "${answer.query}" near ${answer.location}.`;
  const data = {
    query: answer.query,
    location: answer.location,
    count: answer.count,
    results: answer.results,
  };
  return successResult(`${summary} ${deps.budget.describe()}`, data, deps.mask);
}
