// find_saved_leads: the saved leads that match some words, without the whole list in the model's
// context. Reads the saved leads on our side (saved-leads.ts, within the request budget), compares
// normalized text (case, accents and punctuation ignored), and returns the matches only, newest first.
import { UsageError } from '../api/errors.js';
import type { Lead } from '../api/schemas.js';
import { normalizeText } from '../text/business-match.js';
import { formatCount } from '../ui/ui.js';
import { projectFields } from './continuations.js';
import type { ToolCall, ToolDeps } from './deps.js';
import { describeFailure } from './failure-text.js';
import type { FindSavedInput } from './schemas.js';
import { successResult, type ToolResult } from './tool-result.js';

const TOOL = 'find_saved_leads';
const DEFAULT_MAX_RESULTS = 25;
const TEXT_FIELDS = ['name', 'address', 'category', 'phone', 'website'] as const;

export async function runFindSavedTool(
  input: FindSavedInput,
  deps: ToolDeps,
  call: ToolCall,
): Promise<ToolResult> {
  if (input.text === undefined && input.category === undefined && input.place === undefined) {
    throw new UsageError(
      'find_saved_leads needs text, category or place',
      'To read saved leads without a filter, use list_leads.',
    );
  }
  const maxResults = input.max_results ?? DEFAULT_MAX_RESULTS;
  const check = JSON.stringify([input.text, input.category, input.place, maxResults]);
  const project = projectFields(input.fields);
  if (input.next_page !== undefined) {
    const { held, id, offset } = deps.continuations.resume(TOOL, check, input.next_page);
    return answer(
      input,
      deps,
      deps.continuations.part(TOOL, check, held.items, project, held.extra, offset, id),
      held.extra,
    );
  }
  const saved = await deps.savedLeads.load(call.signal, call.progress);
  const wanted = matcher(input);
  const matches = saved.leads.filter(wanted);
  let stoppedEarly: string | undefined;
  if (saved.stoppedBy !== undefined) {
    if (typeof saved.stoppedBy === 'string') stoppedEarly = saved.stoppedBy;
    else {
      deps.pause.note(saved.stoppedBy);
      stoppedEarly = describeFailure(saved.stoppedBy, deps.failure).lines.join(' ');
    }
  }
  const extra: Record<string, unknown> = {
    matched: matches.length,
    scanned: saved.leads.length,
    ...(saved.total === undefined ? {} : { total: saved.total }),
    complete: saved.complete,
    ...(stoppedEarly === undefined ? {} : { stopped_early: stoppedEarly }),
  };
  const shown = matches.slice(0, maxResults);
  return answer(input, deps, deps.continuations.part(TOOL, check, shown, project, extra), extra);
}

function matcher(input: FindSavedInput): (lead: Lead) => boolean {
  const text = words(input.text);
  const category = words(input.category);
  const place = words(input.place);
  return (lead) => {
    const record = lead as Record<string, unknown>;
    const field = (name: string) => normalizeText(record[name]);
    if (category && !containsAll(field('category'), category)) return false;
    if (place && !containsAll(field('address'), place)) return false;
    if (text) {
      const all = TEXT_FIELDS.map(field).join(' ');
      if (!containsAll(all, text)) return false;
    }
    return true;
  };
}

/** Normalized words, each of which must begin a word of the field ("plumb" finds "plumbing", "57" not "157"). */
function words(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = normalizeText(value).split(' ').filter(Boolean);
  return list.length === 0 ? undefined : list;
}

function containsAll(haystack: string, needles: string[]): boolean {
  const words = haystack.split(' ');
  return needles.every((needle) => words.some((word) => word.startsWith(needle)));
}

function answer(
  input: FindSavedInput,
  deps: ToolDeps,
  part: ReturnType<ToolDeps['continuations']['part']>,
  extra: Record<string, unknown>,
): ToolResult {
  const asked = [
    input.text === undefined ? undefined : `text "${input.text}"`,
    input.category === undefined ? undefined : `category "${input.category}"`,
    input.place === undefined ? undefined : `place "${input.place}"`,
  ]
    .filter(Boolean)
    .join(', ');
  const matched = Number(extra.matched);
  const scanned = Number(extra.scanned);
  let summary = `${formatCount(matched)} saved ${matched === 1 ? 'lead matches' : 'leads match'} ${asked}, among ${formatCount(scanned)} read`;
  summary += extra.complete ? ' (all of them).' : '.';
  if (matched > part.total) summary += ` The newest ${formatCount(part.total)} are returned (max_results).`;
  if (extra.stopped_early !== undefined)
    summary += ` Not every saved lead was read: ${String(extra.stopped_early)}`;
  if (part.truncated || part.offset > 0) {
    summary += ` This answer holds ${formatCount(part.offset + 1)}–${formatCount(part.offset + part.items.length)} of ${formatCount(part.total)}`;
    summary += part.truncated
      ? ` (cut to fit a context window): pass next_page "${part.nextPage}" with the same arguments for more, at no cost.`
      : '.';
  }
  summary += ` ${deps.budget.describe()}`;
  return successResult(
    summary,
    {
      leads: part.items,
      returned: part.items.length,
      offset: part.offset,
      ...extra,
      truncated: part.truncated,
      ...(part.nextPage === undefined ? {} : { next_page: part.nextPage }),
    },
    deps.mask,
  );
}
