// `leadctl search --input FILE` (docs/batch.md): rows checked before the first request, a few searches at a
// time written in input order; with -o, FILE.state after every search for --resume.
import type { ClientHooks } from '../../api/client-options.js';
import { abortErrorFor, UsageError, ValidationError } from '../../api/errors.js';
import { BATCH_RESOURCE, keepFirstPerPlace, labelResult } from '../../batch/items.js';
import { loadBatchPlan } from '../../batch/load-input.js';
import { openBatchTarget } from '../../batch/open-target.js';
import {
  type BatchStop,
  type RequestCap,
  runBatchEngine,
  type SearchOutcome,
} from '../../batch/run-batch.js';
import { keptAnswers, outputShape, recordSends, removeState, unansweredBefore } from '../../batch/state.js';
import {
  failedRowsError,
  linesOf,
  requestCapError,
  resumeCommand,
  summaryLine,
  unknownAtStop,
  unknownNotResent,
  unknownRowsError,
} from '../../batch/summary.js';
import type { SearchRow } from '../../batch/validate.js';
import { joinChunks } from '../../output/formats.js';
import { createItemRenderer } from '../../output/item-sink.js';
import { filteredOutClause } from '../../output/where.js';
import { type CommandContext, itemOutput, openSession } from '../../session.js';
import { sanitizeForTerminal } from '../../text/terminal-text.js';
import { notePartialFile } from '../../ui/error-lines.js';
import { safeForStderr } from '../../ui/ui.js';
import { warnIfOverQuota } from '../../usage/recorder.js';
import type { SearchFlags } from './command.js';
import { remembersSearches } from './run.js';

type Item = Record<string, unknown>;

const DEFAULT_CONCURRENCY = 2;

export async function runBatch(input: string, flags: SearchFlags, ctx: CommandContext): Promise<void> {
  if (flags.location !== undefined || flags.radius !== undefined) {
    throw new UsageError('--location and --radius come from the input file in a batch, not from flags');
  }
  if (flags.resume && !flags.output) {
    throw new UsageError('--resume needs -o <file>: the regular file the stopped batch was writing');
  }
  const plan = await loadBatchPlan(input, flags, ctx, { keepRows: !flags.dryRun });

  if (flags.resendUnknown && !flags.resume) {
    throw new UsageError(
      '--resend-unknown goes with --resume: it sends again what a stopped batch never heard back about',
    );
  }
  if (flags.dryRun) {
    const { runBatchDryRun } = await import('../../batch/dry-run.js');
    return runBatchDryRun(plan, input, flags, ctx);
  }

  const memory = remembersSearches(flags)
    ? await (await import('../../sync/search-memory.js')).openSearchMemory(flags, ctx)
    : undefined;
  /** Rows the database answers (--cache), looked up before the run: not sent, counted or stored. */
  const fromCache = new Map<SearchRow, Item[]>();
  /** Rows a stopped run had answers for but never wrote (a full disk): written now, nothing sent. */
  const kept = new Map<SearchRow, Item[]>();
  let answeredFromCache = 0;
  const cap =
    flags.maxRequests === undefined
      ? undefined
      : requestCap(flags.maxRequests, (row) => fromCache.has(row) || kept.has(row));
  const session = await openSession(ctx, cap?.hooks).catch(async (error: unknown) => {
    await memory?.close();
    throw error;
  });
  let releaseTarget = () => {};
  const { client, ui } = session;
  const { io } = ctx;
  try {
    const { format, renderer, where } = await createItemRenderer(
      itemOutput(session, ctx, flags, BATCH_RESOURCE),
    );
    const shape = outputShape(format, flags);
    const target = await openBatchTarget({
      file: flags.output,
      resume: Boolean(flags.resume),
      stdout: io.stdout,
      plan,
      shape,
      renderer,
    });
    releaseTarget = target.release;
    const { output, stateFile, state } = target;
    const total = plan.searches;
    // Sent by the stopped run without an answer: not sent again unless the user says so.
    const skip = flags.resume ? unansweredBefore(state, Boolean(flags.resendUnknown)) : new Set<number>();
    if (flags.resume) {
      for (const [index, results] of keptAnswers(state)) kept.set(plan.unique[index] as SearchRow, results);
      ui.notice(
        `Resuming: ${state.done} of ${total} searches were done before${kept.size > 0 ? `, ${kept.size} more answered (written now, not sent again)` : ''}.`,
      );
      const waiting = state.unknown.filter((search) => search.index >= state.done);
      if (skip.size > 0) ui.warn(unknownNotResent(waiting));
      else if (waiting.length > 0) {
        ui.notice(`Sending again, as --resend-unknown asks: ${linesOf(waiting)}.`);
        state.unknown = state.unknown.filter((search) => search.index < state.done);
      }
    }
    const seen = new Set(state.seen);
    for (const [index, row] of plan.unique.entries()) {
      const fresh = index >= state.done && !skip.has(index) && !kept.has(row);
      const hit = fresh ? await memory?.cached(row) : undefined;
      if (hit) fromCache.set(row, hit.results);
    }
    // Checked against what the server says is left once it has answered the first search.
    const toSend = total - state.done - skip.size - fromCache.size - kept.size;
    let quotaChecked = false;
    const sends = recordSends(state, stateFile);

    const onStart = async (index: number, row: SearchRow) => {
      ui.progress(`Searching ${index + 1} of ${total} (${describeRow(row)})`);
      if (fromCache.has(row) || kept.has(row)) return;
      cap?.countStart();
      await sends.sending(index, row);
    };

    // One finished search, in input order: write its results, then record it as done.
    const onFinished = async (index: number, row: SearchRow, outcome: SearchOutcome<Item>) => {
      if (!quotaChecked && !fromCache.has(row) && !kept.has(row)) {
        quotaChecked = true;
        warnIfOverQuota(session, 'this batch', toSend - 1);
      }
      if (outcome.kind === 'refused') sends.answered(index);
      if (outcome.kind === 'unknown') {
        ui.stopProgress();
        io.stderr.write(
          `${safeForStderr(`leadctl: line ${row.line} (${describeRow(row)}): sent before the stop without an answer; not sent again`)}\n`,
        );
      } else if (outcome.kind === 'found') {
        const results = memory ? (await memory.select(outcome.results)).kept : outcome.results;
        const items = results.map((result) => labelResult(row, result));
        const written = where.keep(flags.unique ? keepFirstPerPlace(items, seen, row) : items);
        // flush: a table lays out its columns from the first search's results and shows them at once,
        // rather than after the whole batch; xlsx hands over the bytes its zip has made so far.
        const chunks = written.map((item) => renderer.row(item));
        const flushed = await renderer.flush?.();
        await output.write(joinChunks(flushed === undefined ? chunks : [...chunks, flushed]));
        state.results += written.length;
        state.searched += 1;
        sends.written(index);
        if (fromCache.has(row)) answeredFromCache += 1;
        else await memory?.record(row, outcome.results);
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
      await sends.persist();
    };

    const result = await runBatchEngine<SearchRow, Item>({
      rows: plan.unique,
      startAt: state.done,
      skip,
      concurrency: flags.concurrency ?? DEFAULT_CONCURRENCY,
      ...(cap ? { cap } : {}),
      signal: ctx.signal,
      search: async (row, signal, index) => {
        const known = kept.get(row) ?? fromCache.get(row);
        if (known) return known;
        const { results } = await client.search(row, { signal });
        // Kept before its rows are written: a write that fails (a full disk) costs no second search.
        await sends.keep(index, results);
        return results;
      },
      isRowFailure: (error) => error instanceof ValidationError,
      onStart,
      onAbandoned: (index, _row, error) => sends.abandoned(index, error),
      onFinished,
    });
    ui.stopProgress();
    // What the stop changed (searches known not to have run) goes to disk before anything is said.
    if (result.stop) await sends.persist().catch(() => {});
    else await sends.saved();

    const closing = await renderer.finish();
    const inFlight = state.unknown.filter((search) => search.index >= result.finished);
    const answeredNotWritten = state.answers.length;
    const totals = {
      sent: state.sent,
      unknown: state.unknown.length,
      cached: answeredFromCache,
      failed: state.failed.length,
      duplicates: plan.duplicates,
      notRun: total - result.finished - inFlight.length - answeredNotWritten,
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
      ui.notice(summaryLine(totals) + filteredOutClause(where.filteredOut));
      if (totals.failed > 0) throw failedRowsError(totals.failed, total);
      if (totals.unknown > 0) throw unknownRowsError(totals.unknown);
      return;
    }
    // Stopped: close what was written (--resume cuts the closing chunk off at the recorded length). A file
    // batch that finished no search keeps nothing: a nightly job must not pile up empty files.
    const keepsNothing =
      output.partialPath !== undefined &&
      state.done === 0 &&
      state.unknown.length === 0 &&
      answeredNotWritten === 0;
    if (keepsNothing) {
      await output.discard();
      if (stateFile) await removeState(stateFile);
    } else {
      await output.write(closing).catch(() => {});
      await output.abandon();
    }
    ui.notice(summaryLine(totals) + filteredOutClause(where.filteredOut));
    if (inFlight.length > 0) ui.warn(unknownAtStop(inFlight, stateFile !== undefined));
    if (answeredNotWritten > 0 && stateFile) {
      ui.notice(
        `${answeredNotWritten === 1 ? 'A search was' : `${answeredNotWritten} searches were`} answered but not written: ${stateFile.name} keeps the answers, and --resume writes them without searching again.`,
      );
    }
    if (stateFile && !keepsNothing) {
      ui.notice(
        `Progress is saved in ${stateFile.name}; continue with: ${resumeCommand(input, flags.output as string, shape, plan.inputWords)}`,
      );
    }
    const error = stopError(result.stop, flags.maxRequests, totals.notRun, ctx.signal);
    if (!keepsNothing && output.partialPath) notePartialFile(error, output.partialPath);
    throw error;
  } finally {
    ui.stopProgress();
    await memory?.close();
    releaseTarget();
    await session.close();
  }
}

// --max-requests: each search and each retry spends one. A search starts only while one is left; a retry
// over the cap stops the batch (the searches in flight are redone by --resume).
function requestCap(
  maxRequests: number,
  needsNoRequest: (row: SearchRow) => boolean,
): RequestCap<SearchRow> & { hooks: ClientHooks; countStart(): void } {
  let spent = 0;
  const exceeded = new AbortController();
  return {
    allowsStart: (row) => needsNoRequest(row) || spent < maxRequests,
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

function stopError(stop: BatchStop, max: number | undefined, notRun: number, signal: AbortSignal): unknown {
  if (stop.kind === 'interrupted') return abortErrorFor(signal.reason);
  if (stop.kind === 'request-cap') return requestCapError(max ?? 0, notRun);
  return stop.error;
}

function describeRow(row: SearchRow): string {
  return sanitizeForTerminal(
    `${row.query}, ${row.location}${row.radius === undefined ? '' : `, ${row.radius} mi`}`,
  );
}
