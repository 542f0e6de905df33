// One list's sync, committed page by page (docs/sync.md, "`leadctl sync`"): a full pass the first time or
// with --full; later, what is new, the rest of an unfinished first run, then deletions (deletions.ts).
// Each row keeps its place in the list (list_rank): a run's items rank above all before them.
import { ExitCode, LeadError, UsageError } from '../api/errors.js';
import { identityText } from '../api/exact-number.js';
import type { FetchPage, ListResource, PageProgress } from '../api/paging/index.js';
import { exportPages, incrementalPages } from '../checkpoint/incremental.js';
import type { ListState, Store, UpsertCounts } from '../store/store.js';
import { findDeletions } from './deletions.js';

type Item = Record<string, unknown>;

export interface ListSyncOptions {
  store: Store;
  account: string;
  resource: ListResource;
  fetchPage: FetchPage<Item>;
  signal: AbortSignal;
  /** --full: read every page, whatever the state says. */
  full: boolean;
  /** This run's time: every row it receives is seen then (a full pass marks the rows seen before). */
  seenAt: string;
  noun: string;
  /** Filled as pages commit, so that a stop can say what was kept. */
  counts: UpsertCounts & { deleted: number; total: number | undefined };
  onProgress(p: PageProgress): void;
  onPage(page: number, fetched: number): void;
  onNotice(message: string): void;
}

/** Page size: the largest, the fewest requests. */
const LIMIT = 100;
/** Each run's ranks start this far above the highest so far, leaving room for its items. */
const RUN_SPAN = 2 ** 32;
/** A list that changes under every pass this many times stops the run (what was committed stays). */
const MAX_PASSES = 4;

class FullPassNeeded extends Error {}

export async function syncList(o: ListSyncOptions): Promise<void> {
  const { store, account, resource } = o;
  let state = await store.readState(account, resource);
  if (state && !o.full) {
    const live = await store.liveCount(account, resource);
    if (live < state.rows) {
      throw new UsageError(
        `${store.label}: ${resource} of account ${account} holds ${live} rows where the last sync left ${state.rows}; it was changed outside leadctl`,
        'run: leadctl sync --full (it fetches what is missing and keeps the rest)',
      );
    }
  }
  if (!state || o.full) return fullPass(o, state);
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    try {
      state = await frontWalk(o, state);
      if (state.fullPassAt === undefined) state = await restOfFirstPass(o, state);
    } catch (error) {
      if (error instanceof FullPassNeeded) return fullPass(o, state);
      throw error;
    }
    const live = await store.liveCount(account, resource);
    o.counts.total = state.total;
    if (state.total === live) return;
    if (state.total > live) return fullPass(o, state);
    const verdict = await findDeletions({
      readPage: (page) => o.fetchPage(page, LIMIT, o.signal),
      onPage: (items) => commit(o, items, undefined, state as ListState),
      mirror: {
        ranksOf: (ids) => store.ranksOf(account, resource, ids),
        liveAbove: (rank) => store.liveAbove(account, resource, rank),
        liveRanked: (high, low) => store.liveRanked(account, resource, high, low),
      },
      total: state.total,
      live,
      limit: LIMIT,
    });
    if ('deleted' in verdict) {
      const marked = state;
      await store.transaction(async () => {
        o.counts.deleted += await store.markDeleted(account, resource, o.seenAt, verdict.deleted);
        await store.writeState(account, resource, { ...marked, rows: live - verdict.deleted.length });
      });
      return;
    }
    if (verdict.outcome === 'unsure') return fullPass(o, state);
  }
  throw new LeadError(`the ${o.noun} list changed while each of ${MAX_PASSES} passes read it`, {
    exitCode: ExitCode.unavailable,
    hint: 'run the same command again: what was fetched is kept',
  });
}

/** One page in one transaction: its rows, and the list's state with them; counted once committed. */
async function commit(
  o: ListSyncOptions,
  items: Item[],
  ranks: ((at: number) => number) | undefined,
  state: ListState,
  fresh = false,
) {
  const page = await o.store.transaction(async () => {
    const counts = await o.store.upsert(o.resource, o.account, items, o.seenAt, ranks, fresh);
    await o.store.writeState(o.account, o.resource, {
      ...state,
      rows: state.rows + counts.added + counts.revived,
    });
    return counts;
  });
  o.counts.added += page.added;
  o.counts.changed += page.changed;
  o.counts.revived += page.revived;
  state.rows += page.added + page.revived;
}

/** Every page; the rows a complete pass did not see are marked deleted. */
async function fullPass(o: ListSyncOptions, previous: ListState | undefined): Promise<void> {
  const first = exportPages(o.fetchPage, o.resource, {
    limit: LIMIT,
    concurrency: 4,
    signal: o.signal,
    onProgress: o.onProgress,
    onNotice: o.onNotice,
  });
  const range = await o.store.rankRange(o.account, o.resource);
  const base = range.high + RUN_SPAN;
  // A pass lists each id once (the walk's id set): into a table without the account's rows, all are new.
  const fresh = range.rows === 0;
  const rows = await o.store.liveCount(o.account, o.resource);
  // A finished mirror keeps its head until this pass ends: a stop part way leaves the next run's walk
  // where it was. A first run's state is its first page's head at once: the next run goes on from it.
  const state: ListState = previous?.fullPassAt
    ? { ...previous, rows }
    : { head: [], total: 0, rows, fullPassAt: undefined };
  let position = 0;
  for await (const items of first.pages) {
    if (!previous?.fullPassAt) Object.assign(state, first.result());
    const from = position;
    await commit(o, items, (at) => base - from - at, state, fresh);
    position += items.length;
  }
  await o.store.transaction(async () => {
    const gone = await o.store.markDeleted(o.account, o.resource, o.seenAt, { unseenSince: o.seenAt });
    o.counts.deleted += gone;
    await o.store.writeState(o.account, o.resource, {
      ...first.result(),
      rows: state.rows - gone,
      fullPassAt: new Date().toISOString(),
    });
  });
  o.counts.total = first.result().total;
}

/** What is new since the head: the items in front of it, each ranked above all before them. */
async function frontWalk(o: ListSyncOptions, state: ListState): Promise<ListState> {
  const walk = incrementalPages(o.fetchPage, {
    limit: LIMIT,
    head: state.head,
    signal: o.signal,
    noun: o.noun,
    onPage: o.onPage,
    boundaryLost: () => new FullPassNeeded(),
  });
  const base = (await o.store.rankRange(o.account, o.resource)).high + RUN_SPAN;
  let position = 0;
  const during = { ...state };
  for await (const items of walk.pages) {
    const from = position;
    await commit(o, items, (at) => base - from - at, during);
    position += items.length;
  }
  const next = { ...during, ...walk.result() };
  await o.store.writeState(o.account, o.resource, next);
  return next;
}

/** The rest of a stopped first run: from its oldest row kept (on its page, or earlier after deletions) on. */
async function restOfFirstPass(o: ListSyncOptions, state: ListState): Promise<ListState> {
  const { store, account, resource } = o;
  const read = async (page: number) => {
    const answer = await o.fetchPage(page, LIMIT, o.signal);
    const ids = answer.items.map((item) => identityText(item.id) ?? '');
    return { ...answer, ids, known: await store.ranksOf(account, resource, ids) };
  };
  for (let attempt = 0; attempt < MAX_PASSES; attempt++) {
    const live = await store.liveCount(account, resource);
    if (live === 0) break;
    let page = Math.floor((live - 1) / LIMIT) + 1;
    let answer = await read(page);
    // The edge: the last kept row with only new items after it. Found at a page's end when the page
    // after it holds none of them, so a step never goes back the way it came.
    let [last, moved] = [-1, 0];
    for (let steps = 0; ; steps++) {
      last = answer.ids.findLastIndex((id) => answer.known.has(id));
      const move =
        page > 1 && last < 0 && moved !== 1
          ? -1
          : last === answer.ids.length - 1 && page < answer.meta.totalPages && moved !== -1
            ? 1
            : 0;
      if (move === 0) break;
      if (steps === 20) throw new FullPassNeeded();
      page += move;
      moved = move;
      answer = await read(page);
    }
    // From the edge to the end, every item the mirror lacks, in order, below every row it holds.
    const firstTotal = answer.meta.total;
    let rank = (await store.rankRange(account, resource)).low;
    let items = answer.items.slice(last + 1);
    for (;;) {
      const fresh = items.filter((item) => !answer.known.has(identityText(item.id) ?? ''));
      if (fresh.length > 0) {
        const below = rank;
        await commit(o, fresh, (at) => below - 1 - at, state);
        rank -= fresh.length;
      }
      o.onPage(page, o.counts.added);
      if (page >= answer.meta.totalPages) {
        const done = { ...state, fullPassAt: new Date().toISOString() };
        await store.writeState(account, resource, done);
        return done;
      }
      answer = await read(++page);
      // Fewer items now: the rest moved up, and a page may have been skipped. Find the edge again.
      if (answer.meta.total < firstTotal) break;
      items = answer.items;
    }
  }
  throw new FullPassNeeded();
}
