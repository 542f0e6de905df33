// An in-memory newest-first list and a fetchPage over it for the paginate tests. Each request is held
// until the test says so, in two steps: `snapshot()` reads the list (the moment the server answers),
// `deliver()` hands the answer to the client. Splitting them lets a test make two requests in flight
// read the list in one order and arrive in the other, with inserts and removals in between.

import type { FetchPage, PageResult } from '../../src/api/paging/index.js';

export interface FakeLead extends Record<string, unknown> {
  id: string;
  /** Higher is newer: a yielded sequence must be strictly decreasing. */
  seq: number;
  saved_at: string;
}

const BASE_MS = Date.UTC(2026, 0, 1);

export function leadWithSeq(seq: number): FakeLead {
  return { id: `lead-${seq}`, seq, saved_at: new Date(BASE_MS + seq * 60_000).toISOString() };
}

export class FakeList {
  /** Newest first. */
  items: FakeLead[] = [];
  private lastSeq = 0;
  readonly removed = new Set<string>();

  constructor(count: number) {
    this.insert(count);
  }

  /** Saves n new leads: they go to the front. */
  insert(count = 1): void {
    for (let index = 0; index < count; index += 1) {
      this.lastSeq += 1;
      this.items.unshift(leadWithSeq(this.lastSeq));
    }
  }

  removeAt(position: number): void {
    const [gone] = this.items.splice(position, 1);
    if (gone) this.removed.add(gone.id);
  }

  removeId(id: string): void {
    this.removeAt(this.items.findIndex((item) => item.id === id));
  }

  ids(): string[] {
    return this.items.map((item) => item.id);
  }

  page(page: number, limit: number): PageResult<FakeLead> {
    const start = (page - 1) * limit;
    const total = this.items.length;
    return {
      items: this.items.slice(start, start + limit).map((item) => ({ ...item })),
      meta: { page, limit, total, totalPages: Math.ceil(total / limit) },
    };
  }
}

export interface HeldCall {
  page: number;
  limit: number;
  signal: AbortSignal;
  answer: PageResult<FakeLead> | undefined;
  state: 'waiting' | 'read' | 'delivered' | 'failed' | 'aborted';
  snapshot(): void;
  deliver(): void;
  /** snapshot() then deliver(). */
  respond(): void;
  fail(error: unknown): void;
}

/** Far more requests than any paginate test makes (the longest runs take a few hundred). */
const MAX_REQUESTS_PER_RUN = 10_000;

export class FakeServer {
  readonly calls: HeldCall[] = [];
  /** The list when the server first read it: where a run begins. */
  firstSnapshotIds: string[] | undefined;
  /** When set, every request is answered at once, after running this hook (e.g. to mutate the list). */
  autoRespond: ((call: HeldCall) => void) | undefined;

  constructor(readonly list: FakeList) {}

  readonly fetchPage: FetchPage<FakeLead> = (page, limit, signal) =>
    new Promise((resolve, reject) => {
      // A walk that loops on one page fails the test instead of hanging it.
      if (this.calls.length >= MAX_REQUESTS_PER_RUN) {
        reject(new Error(`more than ${MAX_REQUESTS_PER_RUN} requests: the walk is looping`));
        return;
      }
      const call: HeldCall = {
        page,
        limit,
        signal,
        answer: undefined,
        state: 'waiting',
        snapshot: () => {
          if (call.state !== 'waiting') throw new Error(`snapshot of a ${call.state} call`);
          this.firstSnapshotIds ??= this.list.ids();
          call.answer = this.list.page(page, limit);
          call.state = 'read';
        },
        deliver: () => {
          if (call.state !== 'read' || !call.answer) throw new Error(`deliver of a ${call.state} call`);
          call.state = 'delivered';
          signal.removeEventListener('abort', onAbort);
          resolve(call.answer);
        },
        respond: () => {
          call.snapshot();
          call.deliver();
        },
        fail: (error) => {
          call.state = 'failed';
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        if (call.state === 'delivered' || call.state === 'failed') return;
        call.state = 'aborted';
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.calls.push(call);
      if (this.autoRespond) {
        this.autoRespond(call);
        if (call.state === 'waiting') call.respond();
      }
    });

  open(): HeldCall[] {
    return this.calls.filter((call) => call.state === 'waiting' || call.state === 'read');
  }

  /** The head reads that certify pipelined pages: page 1 at the API's largest limit. */
  headReads(): HeldCall[] {
    return this.calls.filter((call) => call.page === 1 && call.limit === 100);
  }

  /** Data pages requested, as `page:limit`, head reads left out. */
  dataRequests(): string[] {
    return this.calls
      .filter((call) => !this.headReads().includes(call))
      .map((call) => `${call.page}:${call.limit}`);
  }
}

/** Lets every pending promise callback run (no timers involved). */
export async function flush(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Consumes an iterable in the background. */
export function collect<T>(iterable: AsyncIterable<T>): {
  done: Promise<T[]>;
  items: T[];
  finished(): boolean;
} {
  const items: T[] = [];
  let finished = false;
  const done = (async () => {
    try {
      for await (const item of iterable) items.push(item);
      return items;
    } finally {
      finished = true;
    }
  })();
  done.catch(() => {});
  return { done, items, finished: () => finished };
}

/** mulberry32: a small seeded PRNG, so a failing seed can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
