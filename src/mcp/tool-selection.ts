// Which tools the host sees: all of them, or those named by --tools, less search_businesses under
// --read-only (a session that can spend no live search). Checked before the server starts.
import { UsageError } from '../api/errors.js';

export const TOOL_NAMES = [
  'search_businesses',
  'find_saved_leads',
  'list_leads',
  'list_search_history',
  'usage',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/** The tools that send no request that spends a live search. */
export const SPENDS_SEARCHES: ReadonlySet<ToolName> = new Set(['search_businesses']);

export function selectTools(options: { readOnly?: boolean; tools?: string }): Set<ToolName> {
  let selected = new Set<ToolName>(TOOL_NAMES);
  if (options.tools !== undefined) {
    const names = options.tools
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0) {
      throw new UsageError('--tools names no tool', `name some of: ${TOOL_NAMES.join(', ')}`);
    }
    for (const name of names) {
      if (!(TOOL_NAMES as readonly string[]).includes(name)) {
        throw new UsageError(`unknown tool "${name}" in --tools`, `the tools are: ${TOOL_NAMES.join(', ')}`);
      }
    }
    selected = new Set(names as ToolName[]);
  }
  if (options.readOnly) {
    if (options.tools !== undefined && selected.has('search_businesses')) {
      throw new UsageError(
        '--read-only serves no search_businesses, but --tools names it',
        'leave search_businesses out of --tools, or leave out --read-only',
      );
    }
    selected.delete('search_businesses');
  }
  return selected;
}
