// What `search` remembers and forgets with --db, --new-only, --cache and --exclude (docs/sync.md, "`search
// --db`"): one transaction per sent search; the account's own rows unless --seen-by all.
import { identityText } from '../api/exact-number.js';
import { resolveSettings } from '../config/settings.js';
import type { CommandContext } from '../session.js';
import { databaseTarget } from '../store/paths.js';
import { openStore, type SearchAsk } from '../store/store.js';
import type { MatchRule } from '../text/business-match.js';
import { loadExcludeList } from './exclude-list.js';

type Item = Record<string, unknown>;

export interface SearchMemoryFlags {
  db?: string;
  newOnly?: boolean;
  /** --cache, in milliseconds. */
  cache?: number;
  exclude?: string;
  /** --max-input-bytes: the ceiling on --exclude's CSV too. */
  maxInputBytes?: number;
  account?: string;
  seenBy?: string;
}

export interface Selection {
  kept: Item[];
  /** Dropped by --exclude, by the rule that matched. */
  excluded: Partial<Record<MatchRule, number>>;
  /** Dropped by --new-only. */
  seenBefore: number;
}

export async function openSearchMemory(
  flags: SearchMemoryFlags,
  ctx: Pick<CommandContext, 'io' | 'globals' | 'signal'>,
  now: () => number = Date.now,
) {
  const { env } = ctx.io;
  const settings = await resolveSettings({ profile: ctx.globals.profile }, env);
  const account = flags.account ?? settings.profile;
  const seenBy = flags.seenBy === 'all' ? undefined : account;
  const read = { env, account: seenBy, maxBytes: flags.maxInputBytes, signal: ctx.signal };
  const suppression = flags.exclude === undefined ? undefined : await loadExcludeList(flags.exclude, read);
  // --new-only and --cache need a database: --db, else the profile's db-url, else the one sync keeps.
  const needsDatabase = flags.db !== undefined || Boolean(flags.newOnly) || flags.cache !== undefined;
  const store = needsDatabase
    ? await openStore(databaseTarget(flags.db, settings.dbUrl, env), env, {
        feature: flags.db !== undefined ? '--db' : flags.newOnly ? '--new-only' : '--cache',
        account,
      })
    : undefined;
  return {
    /** The database, when one is used. */
    file: store?.label,
    /** The newest answer to the same search within --cache, from the database; undefined otherwise. */
    cached: async (ask: SearchAsk) => {
      if (!store || flags.cache === undefined) return undefined;
      return store.cachedSearch(seenBy, ask, new Date(now() - flags.cache).toISOString());
    },
    /** What is written of `results`. */
    select: async (results: readonly Item[]) => {
      const selection: Selection = { kept: [], excluded: {}, seenBefore: 0 };
      const keys = results.map((item) => placeKey(item));
      const known = flags.newOnly && store ? await store.knownPlaces(seenBy, keys) : new Set<string>();
      for (const item of results) {
        const rule = suppression?.matches(item);
        if (rule !== undefined) selection.excluded[rule] = (selection.excluded[rule] ?? 0) + 1;
        else if (known.has(placeKey(item))) selection.seenBefore += 1;
        else selection.kept.push(item);
      }
      return selection;
    },
    /** Stores a sent search and its results (nothing without a database). */
    record: async (
      ask: SearchAsk,
      results: readonly Item[],
      echo: { query?: unknown; location?: unknown } = {},
    ) => {
      await store?.recordSearch(account, ask, results, echo, new Date(now()).toISOString());
    },
    close: async () => store?.close(),
  };
}

/** As the search_results table keys it: the identity as text. */
const placeKey = (item: Item) => identityText(item.place_id) ?? '';

/** What a selection left out, for the footer: "; 3 written: 2 seen before, 1 excluded (phone)". */
export function selectionNote(selection: Selection, received: number): string {
  const excluded = Object.entries(selection.excluded);
  const excludedCount = excluded.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  if (selection.seenBefore === 0 && excludedCount === 0) return '';
  const parts: string[] = [];
  if (selection.seenBefore > 0) parts.push(`${selection.seenBefore} seen before`);
  if (excludedCount > 0) {
    const rules = excluded.map(([rule, n]) => `${rule.replace('_', ' + ')} ${n}`).join(', ');
    parts.push(`${excludedCount} excluded (${rules})`);
  }
  return `; ${selection.kept.length} of ${received} written: ${parts.join(', ')}`;
}
