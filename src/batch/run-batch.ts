// The batch's engine: up to `concurrency` searches in flight, handed on strictly in input order, so the
// output is the same whatever the timing and "done" is always a prefix of the rows (what --resume
// needs). No search starts more than twice `concurrency` rows ahead of the first one not handed on, so
// one slow search never piles answers up behind it. It knows nothing of files or formats.
export type SearchOutcome<Result> =
  | { kind: 'found'; results: Result[] }
  | { kind: 'refused'; error: unknown }
  /** Sent by a stopped run without an answer, and not sent again (`skip`). */
  | { kind: 'unknown' };

/** Why a batch ended before its last row. */
export type BatchStop =
  | { kind: 'interrupted' }
  | { kind: 'request-cap' }
  /** An error that ends the whole batch: a 429 beyond --max-wait, 401, 5xx after retries, a write failure. */
  | { kind: 'error'; error: unknown };

/** --max-requests: `exceeded` aborts the searches in flight when a retry would go over the cap. */
export interface RequestCap<Row = unknown> {
  allowsStart(row: Row): boolean;
  exceeded: AbortSignal;
}

export interface BatchEngineOptions<Row, Result> {
  rows: readonly Row[];
  /** Rows before this index were finished by a stopped run. */
  startAt: number;
  /** Rows not to search: handed on as 'unknown' in their place. */
  skip?: ReadonlySet<number>;
  concurrency: number;
  cap?: RequestCap<Row>;
  signal: AbortSignal;
  search(row: Row, signal: AbortSignal, index: number): Promise<Result[]>;
  /** Errors that fail one row (a 422) while the others go on; any other error stops the batch. */
  isRowFailure(error: unknown): boolean;
  /** Before a search is sent (awaited: a batch records it first); a throw stops the batch unsent. */
  onStart?(index: number, row: Row): void | Promise<void>;
  /** A search that ended in an error that stops the batch (or was aborted by the stop): never handed on. */
  onAbandoned?(index: number, row: Row, error: unknown): void;
  /** Called once per finished row, in input order; a throw stops the batch. */
  onFinished(index: number, row: Row, outcome: SearchOutcome<Result>): Promise<void>;
}

export interface BatchEngineResult {
  /** Rows [0, finished) were handed to onFinished. */
  finished: number;
  started: number;
  stop?: BatchStop;
}

export async function runBatchEngine<Row, Result>(
  options: BatchEngineOptions<Row, Result>,
): Promise<BatchEngineResult> {
  const { rows, signal } = options;
  const settled = new Map<number, SearchOutcome<Result>>();
  let next = options.startAt;
  let finished = options.startAt;
  let started = 0;
  let stop: BatchStop | undefined;
  // After a failed hand-on (a write error) nothing more is handed on: it would leave a gap.
  let handOnFailed = false;
  // Hand-ons run one after another: onFinished writes output and state, which must not interleave.
  let handing: Promise<void> = Promise.resolve();

  const waiting: Array<() => void> = [];
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const room = () =>
    next - finished < 2 * Math.max(1, options.concurrency) || stop !== undefined || signal.aborted;
  signal.addEventListener('abort', wake, { once: true });
  const handOn = () => {
    handing = handing.then(async () => {
      while (!handOnFailed && settled.has(finished)) {
        const outcome = settled.get(finished) as SearchOutcome<Result>;
        settled.delete(finished);
        try {
          await options.onFinished(finished, rows[finished] as Row, outcome);
        } catch (error) {
          handOnFailed = true;
          if (stop?.kind !== 'interrupted') stop = { kind: 'error', error };
          break;
        }
        finished += 1;
      }
      wake();
    });
    return handing;
  };
  const searchSignal = options.cap ? AbortSignal.any([signal, options.cap.exceeded]) : signal;
  const worker = async () => {
    while (stop === undefined && next < rows.length) {
      if (!room()) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      if (signal.aborted) {
        stop = { kind: 'interrupted' };
        break;
      }
      const row = rows[next] as Row;
      if (options.cap && !options.cap.allowsStart(row)) {
        stop = { kind: 'request-cap' };
        break;
      }
      const index = next;
      next += 1;
      if (options.skip?.has(index)) {
        settled.set(index, { kind: 'unknown' });
        await handOn();
        continue;
      }
      try {
        await options.onStart?.(index, row);
      } catch (error) {
        stop ??= { kind: 'error', error };
        return;
      }
      started += 1;
      try {
        settled.set(index, { kind: 'found', results: await options.search(row, searchSignal, index) });
      } catch (error) {
        const ends = (why: BatchStop) => {
          stop ??= why;
          options.onAbandoned?.(index, row, error);
        };
        if (options.cap?.exceeded.aborted && !signal.aborted) return ends({ kind: 'request-cap' });
        if (signal.aborted) return ends({ kind: 'interrupted' });
        if (!options.isRowFailure(error)) return ends({ kind: 'error', error });
        settled.set(index, { kind: 'refused', error });
      }
      await handOn();
    }
  };

  const workers = Array.from({ length: Math.max(1, options.concurrency) }, () => worker().finally(wake));
  await Promise.all(workers);
  // Searches that finished after a stop are still written when no earlier row is missing.
  await handOn();
  return { finished, started, ...(stop ? { stop } : {}) };
}
