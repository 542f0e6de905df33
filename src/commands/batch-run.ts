// `leadctl search --input FILE`: many searches from a file, within quota, resumable. Every row is
// checked before the first request; searches run a few at a time and are written in input order;
// with -o FILE, progress is kept in FILE.state after every search so --resume can continue a batch
// that a 429, --max-requests or Ctrl-C stopped, ending with the file one uninterrupted run writes.
import type { ClientHooks } from '../api/client.js';
import { InterruptedError, UsageError, ValidationError } from '../api/errors.js';
import { BATCH_RESOURCE, keepFirstPerPlace, labelResult } from '../batch/items.js';
import { planBatch, readInputText } from '../batch/load-input.js';
import { openBatchTarget } from '../batch/open-target.js';
import {
  type BatchStop,
  type RequestBudget,
  runBatchEngine,
  type SearchOutcome,
} from '../batch/run-batch.js';
import { type OutputShape, removeState, saveState } from '../batch/state.js';
import { failedRowsError, requestCapError, resumeCommand, summaryLine } from '../batch/summary.js';
import type { SearchRow } from '../batch/validate.js';
import { createItemRenderer } from '../output/item-sink.js';
import { notePartialFile } from '../output/partial-note.js';
import { sanitizeForTerminal } from '../output/sanitize.js';
import { safeForStderr } from '../ui/safe-text.js';
import { quotaCheckForSearches } from '../usage/spend-warning.js';
import type { CommandContext } from './context.js';
import { remembersSearches, type SearchFlags } from './search-flags.js';
import { openSession } from './session.js';

type Item = Record<string, unknown>;

const DEFAULT_CONCURRENCY = 2;

export async function runBatch(input: string, flags: SearchFlags, ctx: CommandContext): Promise<void> {
  if (flags.location !== undefined || flags.radius !== undefined) {
    throw new UsageError('--location and --radius come from the input file in a batch, not from flags');
  }
  if (flags.resume && !flags.output) {
    throw new UsageError('--resume needs -o <file>: the file the stopped batch was writing');
  }
  const source = input === '-' ? 'standard input' : input;
  const plan = planBatch(await readInputText(input, ctx.io.stdin), source);

  const budget = flags.maxRequests === undefined ? undefined : requestBudget(flags.maxRequests);
  // --db, --new-only, --cache, --exclude (src/sync/search-memory.ts), loaded only when asked for.
  const memory = remembersSearches(flags)
    ? await (await import('../sync/search-memory.js')).openSearchMemory(flags, ctx.io.env)
    : undefined;
  /** Rows answered from the database (--cache): nothing was sent, so nothing new is stored. */
  const fromCache = new Set<SearchRow>();
  let session: Awaited<ReturnType<typeof openSession>>;
  try {
    session = await openSession(ctx, budget?.hooks);
  } catch (error) {
    memory?.close();
    throw error;
  }
  const { client, ui } = session;
  const { io } = ctx;
  try {
    const { format, renderer } = await createItemRenderer({
      ctx,
      flags,
      resource: BATCH_RESOURCE,
      storedFormat: session.settings.format,
    });
    const shape: OutputShape = {
      format,
      fields: flags.fields ?? null,
      header: flags.header,
      sanitize: flags.sanitize,
      unique: Boolean(flags.unique),
    };
    const target = await openBatchTarget({
      file: flags.output,
      resume: Boolean(flags.resume),
      stdout: io.stdout,
      plan,
      shape,
      renderer,
    });
    const { output, stateFile, state } = target;
    if (flags.resume)
      ui.notice(`Resuming: ${state.done} of ${plan.unique.length} searches were done before.`);
    const seen = new Set(state.seen);
    const total = plan.unique.length;
    quotaCheckForSearches(session, total - state.done);

    // One finished search, in input order: write its results, then record it as done.
    const onFinished = async (index: number, row: SearchRow, outcome: SearchOutcome<Item>) => {
      if (outcome.kind === 'found') {
        const results = memory ? memory.select(outcome.results).kept : outcome.results;
        const items = results.map((result) => labelResult(row, result));
        const kept = flags.unique ? keepFirstPerPlace(items, seen) : items;
        await output.write(kept.map((item) => renderer.row(item)).join(''));
        state.results += kept.length;
        state.searched += 1;
        if (!fromCache.has(row)) memory?.record(row, outcome.results);
      } else {
        const message =
          outcome.error instanceof ValidationError
            ? (outcome.error.serverMessage ?? outcome.error.message)
            : String(outcome.error);
        ui.stopProgress();
        io.stderr.write(`${safeForStderr(`leadctl: line ${row.line} (${describeRow(row)}): ${message}`)}\n`);
        state.failed.push({ line: row.line, query: row.query, location: row.location, message });
      }
      state.done = index + 1;
      state.bytes = output.bytes;
      state.sha256 = output.digest();
      if (flags.unique) state.seen = [...seen];
      if (stateFile) await saveState(stateFile, state);
    };

    const result = await runBatchEngine<SearchRow, Item>({
      rows: plan.unique,
      startAt: state.done,
      concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
      ...(budget ? { budget } : {}),
      signal: ctx.signal,
      search: async (row, signal) => {
        const hit = memory?.cached(row);
        if (hit) {
          fromCache.add(row);
          return hit.results;
        }
        const params = {
          query: row.query,
          location: row.location,
          ...(row.radius === undefined ? {} : { radius: row.radius }),
        };
        return (await client.search(params, { signal })).results;
      },
      isRowFailure: (error) => error instanceof ValidationError,
      onStart: (index, row) => {
        budget?.countStart();
        ui.progress(`Searching ${index + 1} of ${total} (${describeRow(row)})`);
      },
      onFinished,
    });
    ui.stopProgress();

    const closing = renderer.finish();
    const totals = {
      searched: state.searched,
      failed: state.failed.length,
      duplicates: plan.duplicates,
      notRun: total - result.finished,
      results: state.results,
    };
    if (!result.stop) {
      await output.write(closing);
      try {
        await output.commit();
      } catch (error) {
        if (output.partialPath) notePartialFile(error, output.partialPath);
        throw error;
      }
      if (stateFile) await removeState(stateFile);
      ui.notice(summaryLine(totals));
      if (totals.failed > 0) throw failedRowsError(totals.failed, total);
      return;
    }
    // Stopped: close what was written (valid json on stdout; the partial file keeps the closing chunk
    // too, which --resume cuts off again at the recorded length), then say how to go on. A file
    // batch that finished no search keeps nothing: a nightly job must not pile up empty files.
    const keepsNothing = output.partialPath !== undefined && state.done === 0;
    if (keepsNothing) {
      await output.discard();
      if (stateFile) await removeState(stateFile);
    } else {
      await output.write(closing).catch(() => {});
      await output.abandon();
    }
    ui.notice(summaryLine(totals));
    if (stateFile && !keepsNothing) {
      ui.notice(
        `Progress is saved in ${stateFile}; continue with: ${resumeCommand(input, flags.output as string, shape)}`,
      );
    }
    const error = stopError(result.stop, flags.maxRequests, totals.notRun);
    if (!keepsNothing && output.partialPath) notePartialFile(error, output.partialPath);
    throw error;
  } finally {
    ui.stopProgress();
    memory?.close();
    await session.close();
  }
}

/**
 * --max-requests: every search started spends a request and every retry the client makes one more.
 * A new search starts only while one is left; a retry that would go over the cap stops the batch
 * (the searches in flight are redone by --resume).
 */
function requestBudget(maxRequests: number): RequestBudget & { hooks: ClientHooks; countStart(): void } {
  let spent = 0;
  const exceeded = new AbortController();
  return {
    allowsStart: () => spent < maxRequests,
    exceeded: exceeded.signal,
    countStart: () => {
      spent += 1;
    },
    hooks: {
      onWait: () => {
        spent += 1;
        if (spent > maxRequests) exceeded.abort();
      },
    },
  };
}

function stopError(stop: BatchStop, maxRequests: number | undefined, notRun: number): unknown {
  if (stop.kind === 'interrupted') return new InterruptedError();
  if (stop.kind === 'request-cap') return requestCapError(maxRequests ?? 0, notRun);
  return stop.error;
}

function describeRow(row: SearchRow): string {
  return sanitizeForTerminal(
    `${row.query}, ${row.location}${row.radius === undefined ? '' : `, ${row.radius} mi`}`,
  );
}
