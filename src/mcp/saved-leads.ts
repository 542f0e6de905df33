// The account's saved leads, for find_saved_leads and exclude_saved: read at most every KEEP_MS, one
// page at a time within the request budget; a list cut short is returned with why, and not kept.
import type { LeadClient } from '../api/client.js';
import { UsageError } from '../api/errors.js';
import type { Lead } from '../api/schemas.js';
import { normalizeText } from '../text/business-match.js';
import { formatCount } from '../ui/ui.js';
import { type Part, partNote, projectFields } from './continuations.js';
import { MAX_SAVED_LEADS } from './defaults.js';
import type { ReportProgress, ToolCall, ToolDeps } from './deps.js';
import { describeFailure } from './failure-text.js';
import type { FindSavedInput } from './schemas.js';
import { successResult, type ToolResult } from './tool-result.js';

const KEEP_MS = 5 * 60_000;
const PAGE = 100;

interface SavedLeadsList {
  leads: Lead[];
  /** How many leads the account holds, as the server said. */
  total: number | undefined;
  complete: boolean;
  /** Why reading stopped before the end (a failure after some pages, or MAX_SAVED_LEADS). */
  stoppedBy?: unknown;
}

export class SavedLeads {
  readonly #client: LeadClient;
  readonly #now: () => number;
  #kept: { list: SavedLeadsList; at: number } | undefined;

  constructor(client: LeadClient, now: () => number = Date.now) {
    this.#client = client;
    this.#now = now;
  }

  /** Throws only when not one page could be read. */
  async load(signal: AbortSignal, progress: ReportProgress): Promise<SavedLeadsList> {
    if (this.#kept && this.#now() - this.#kept.at < KEEP_MS) return this.#kept.list;
    const leads: Lead[] = [];
    let total: number | undefined;
    let stoppedBy: unknown;
    try {
      const pages = this.#client.paginatePages('leads', {
        limit: PAGE,
        concurrency: 1,
        maxItems: MAX_SAVED_LEADS,
        signal,
        onProgress: (p) => {
          total = p.total;
          const goal = Math.min(p.total, MAX_SAVED_LEADS);
          progress(
            p.itemsYielded,
            goal,
            `read ${formatCount(p.itemsYielded)} of ${formatCount(goal)} saved leads`,
          );
        },
      });
      for await (const batch of pages) {
        leads.push(...batch);
        const goal = total === undefined ? undefined : Math.min(total, MAX_SAVED_LEADS);
        progress(leads.length, goal, `read ${formatCount(leads.length)} saved leads`);
      }
    } catch (error) {
      if (leads.length === 0 || signal.aborted) throw error;
      stoppedBy = error;
    }
    const complete = stoppedBy === undefined && (total === undefined || leads.length >= total);
    if (!complete && stoppedBy === undefined) {
      stoppedBy = `the account holds more than ${formatCount(MAX_SAVED_LEADS)} saved leads; only the newest ${formatCount(MAX_SAVED_LEADS)} were read`;
    }
    const list: SavedLeadsList = {
      leads,
      total,
      complete,
      ...(stoppedBy === undefined ? {} : { stoppedBy }),
    };
    if (complete) this.#kept = { list, at: this.#now() };
    return list;
  }
}

// find_saved_leads: matches on normalized text, without the whole list in the model's context.
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
    const { part, extra } = deps.continuations.resume(TOOL, check, input.next_page, project);
    return answer(input, deps, part, extra);
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
  part: Part,
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
  summary += `${partNote(part)} ${deps.budget.describe()}`;
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
