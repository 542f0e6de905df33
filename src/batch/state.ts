// FILE.state: how far a batch writing to -o FILE got, so --resume can continue it (docs/batch.md, "Resume").
// Rows are written in input order, so `done` is a prefix of the unique rows; recordSends keeps it current.
import { rm } from 'node:fs/promises';
import * as z from 'zod/mini';
import { HttpError, NetworkError, RateLimitedError, UsageError } from '../api/errors.js';
import { parseJsonLossless } from '../api/exact-json-parser.js';
import { type HeldFile, readStateJson } from '../checkpoint/checkpoint-file.js';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { jsonText } from '../output/json-text.js';
import { describeIssue } from '../text/schema-issues.js';
import type { SearchRow } from './validate.js';

export const STATE_VERSION = 4;
/** Versions 2 (no `sent`, no `unknown`) and 3 (no `answers`) are read and upgraded. */
const OLDEST_VERSION = 2;

const count = () => z.int().check(z.minimum(0));
const SHA256 = /^[0-9a-f]{64}$/;

/** The options that shape the bytes of the output: a resume must use the same ones. */
const OUTPUT_SHAPE = z.strictObject({
  format: z.enum(OUTPUT_FORMATS),
  fields: z.nullable(z.array(z.string().check(z.minLength(1)))),
  header: z.boolean(),
  sanitize: z.boolean(),
  unique: z.boolean(),
  /** --where conditions as typed; absent in state files from before --where (none given). */
  where: z.optional(z.array(z.string())),
});

/** An input row, as the messages name it. */
const SEARCH = { line: z.int().check(z.minimum(1)), query: z.string(), location: z.string() };
const FAILED_SEARCH = z.strictObject({ ...SEARCH, message: z.string() });
/** A search sent whose answer never came (a stop, a reset), `index` its place among the unique rows. */
const UNKNOWN_SEARCH = z.strictObject({ index: count(), ...SEARCH });

/** A search answered whose rows are not written yet: its results as the server sent them (exact JSON text). */
const KEPT_ANSWER = z.strictObject({ index: count(), results: z.string() });

export const BATCH_STATE = z.strictObject({
  version: z.literal(STATE_VERSION),
  /** SHA-256 of the unique searches (validate.ts fingerprintLine). */
  input: z.string().check(z.regex(SHA256)),
  /** Unique searches in the input. */
  total: z.int().check(z.minimum(1)),
  output: OUTPUT_SHAPE,
  /** The partial file's name, beside the -o target (output/destination.ts). */
  partial: z.string().check(z.regex(/^[^/\\]+\.[0-9a-f]{8}\.partial$/)),
  /** How many unique rows, from the start, are finished (written, or failed with a 422). */
  done: count(),
  /** Length of the partial file in bytes after the last finished search, and their SHA-256. */
  bytes: count(),
  sha256: z.string().check(z.regex(SHA256)),
  /** Results written so far (after --unique). */
  results: count(),
  /** Searches answered with results. */
  searched: count(),
  /** Searches sent, answered or not (the whole batch, every run): what may have been spent. */
  sent: count(),
  failed: z.array(FAILED_SEARCH),
  /**
   * Searches sent without an answer: before `done`, ones a --resume passed over (not sent again);
   * from `done` on, ones in flight when the run stopped.
   */
  unknown: z.array(UNKNOWN_SEARCH),
  /** Searches answered (from `done` on) whose rows were not written when the run stopped: --resume writes them. */
  answers: z.array(KEPT_ANSWER),
  /** place_ids written so far, for --unique; empty without it. */
  seen: z.array(z.string()),
});

export type OutputShape = z.infer<typeof OUTPUT_SHAPE>;
export type UnknownSearch = z.infer<typeof UNKNOWN_SEARCH>;
export type BatchState = z.infer<typeof BATCH_STATE>;

export function statePath(outputFile: string): string {
  return `${outputFile}.state`;
}

export async function saveState(file: HeldFile, state: BatchState): Promise<void> {
  await file.write(`${JSON.stringify(state)}\n`);
}

/** undefined when there is no state file; UsageError (exit 2) when it is not one this leadctl wrote. */
export async function loadState(file: string): Promise<BatchState | undefined> {
  let json = await readStateJson(file, (why) => unreadable(file, why));
  if (json === undefined) return undefined;
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && (version < OLDEST_VERSION || version > STATE_VERSION)) {
    throw unreadable(file, `it was written by another version of leadctl (state version ${version})`);
  }
  if (typeof version === 'number' && version < STATE_VERSION)
    json = upgrade(json as Record<string, unknown>, version);
  const parsed = BATCH_STATE.safeParse(json);
  if (!parsed.success) throw unreadable(file, describeIssue(parsed.error.issues[0] as z.core.$ZodIssue));
  return parsed.data;
}

export function unreadable(file: string, why: string): UsageError {
  return new UsageError(
    `${file} is not a batch state file leadctl can resume: ${why}`,
    'delete it (and the partial file beside it) to start the batch over',
  );
}

/** A batch stopped by an older leadctl: (before 3) every search it finished was sent, none left unanswered; no answers kept. */
function upgrade(old: Record<string, unknown>, version: number): Record<string, unknown> {
  const searched = typeof old.searched === 'number' ? old.searched : 0;
  const failed = Array.isArray(old.failed) ? old.failed.length : 0;
  const counts = version === 2 ? { sent: searched + failed, unknown: [] } : {};
  return { ...old, ...counts, version: STATE_VERSION, answers: [] };
}

export async function removeState(file: HeldFile): Promise<void> {
  await rm(file.target, { force: true });
}

/** The options a batch's output bytes depend on, as a state file keeps them. */
export function outputShape(
  format: OutputShape['format'],
  flags: {
    fields?: string[] | undefined;
    header: boolean;
    sanitize: boolean;
    unique?: boolean | undefined;
    where?: readonly { text: string }[] | undefined;
  },
): OutputShape {
  return {
    format,
    fields: flags.fields ?? null,
    header: flags.header,
    sanitize: flags.sanitize,
    unique: Boolean(flags.unique),
    ...(flags.where ? { where: flags.where.map((condition) => condition.text) } : {}),
  };
}

/** The options that differ between a stopped run and this one, as flags a user recognizes. */
export function shapeDifferences(was: OutputShape, now: OutputShape): string[] {
  const differences: string[] = [];
  if (was.format !== now.format) differences.push(`--format ${was.format}`);
  if (JSON.stringify(was.fields) !== JSON.stringify(now.fields)) {
    differences.push(was.fields ? `--fields ${was.fields.join(',')}` : 'no --fields');
  }
  if (was.header !== now.header) differences.push(was.header ? 'no --no-header' : '--no-header');
  if (was.sanitize !== now.sanitize) differences.push(was.sanitize ? 'no --no-sanitize' : '--no-sanitize');
  if (was.unique !== now.unique) differences.push(was.unique ? '--unique' : 'no --unique');
  if (JSON.stringify(was.where ?? []) !== JSON.stringify(now.where ?? [])) {
    const where = was.where ?? [];
    differences.push(where.length > 0 ? where.map((text) => `--where '${text}'`).join(' ') : 'no --where');
  }
  return differences;
}

// Whether a state file that parsed also adds up: its counts agree with one another and with the input
// it claims to belong to (the partial file is checked when it is reopened: output/destination.ts).
export function checkStateAgreement(file: string, state: BatchState): void {
  const problem = disagreement(state);
  if (problem !== undefined) throw unreadable(file, problem);
}

/** A --resume reads the same input, and writes the same way, as the stopped run. */
export function checkSameBatch(
  stopped: BatchState,
  plan: { fingerprint: string; searches: number },
  shape: OutputShape,
): void {
  if (stopped.input !== plan.fingerprint || stopped.total !== plan.searches) {
    throw new UsageError(
      'the input changed since the stopped run',
      'resume with the same input, or delete the .state file to start over',
    );
  }
  const differences = shapeDifferences(stopped.output, shape);
  if (differences.length > 0) {
    throw new UsageError(
      `the output options differ from the stopped run's`,
      `resume with the same options as before (the stopped run had ${differences.join(', ')})`,
    );
  }
}

function disagreement(state: BatchState): string | undefined {
  if (state.done > state.total) return `done (${state.done}) is more than total (${state.total})`;
  const passedOver = state.unknown.filter((search) => search.index < state.done).length;
  if (state.searched + state.failed.length + passedOver !== state.done) {
    return `searched (${state.searched}), failed (${state.failed.length}) and unknown before done (${passedOver}) do not add up to done (${state.done})`;
  }
  if (state.sent < state.searched + state.failed.length + state.unknown.length + state.answers.length) {
    return `sent (${state.sent}) is less than the searches answered, failed and unknown`;
  }
  const unknown = state.unknown.map((search) => search.index);
  if (!ascendingBelow(unknown, state.total)) return 'unknown lists its searches out of order or beyond total';
  const kept = state.answers.map((answer) => answer.index);
  if (
    !ascendingBelow(kept, state.total) ||
    kept.some((index) => index < state.done || unknown.includes(index))
  ) {
    return 'answers lists searches out of order, done, unknown or beyond total';
  }
  if (state.answers.some((answer) => !isArrayText(answer.results)))
    return 'answers holds results that are not a JSON array';
  if (state.output.format === 'table') return 'a table is never resumed';
  if (!state.output.unique && state.seen.length > 0)
    return 'seen lists place ids, but the batch is not --unique';
  if (state.seen.length > state.results) {
    return `seen lists ${state.seen.length} place ids, more than the ${state.results} results written`;
  }
  if (new Set(state.seen).size !== state.seen.length) return 'seen lists a place id twice';
  const lines = state.failed.map((failed) => failed.line);
  if (lines.some((line, index) => index > 0 && line <= (lines[index - 1] as number))) {
    return 'failed lists its lines out of order';
  }
  if (state.results > 0 && state.bytes === 0) return `results is ${state.results}, but bytes is 0`;
  return undefined;
}

function ascendingBelow(indexes: readonly number[], total: number): boolean {
  return indexes.every((index, at) => index < total && (at === 0 || index > (indexes[at - 1] as number)));
}

function isArrayText(text: string): boolean {
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

// What a batch has sent (docs/batch.md, "Resume"). Saves go out in the order asked for, so the last one on
// disk is the newest.
export function recordSends(state: BatchState, stateFile: HeldFile | undefined) {
  let last: Promise<void> = Promise.resolve();
  const persist = () => {
    if (!stateFile) return Promise.resolve();
    const snapshot = structuredClone(state);
    // Each save is tried even after one failed (a full disk): the newest state is the one that counts.
    last = last.catch(() => {}).then(() => saveState(stateFile, snapshot));
    return last;
  };
  /** An answer came for it (a refusal, or results already kept). */
  const answered = (index: number) => {
    state.unknown = state.unknown.filter((search) => search.index !== index);
  };
  return {
    persist,
    /** Resolves once every save asked for is done (or rejects when the last failed). */
    saved: () => last,
    /** A search about to go out: counted as sent, named as unanswered, saved; throws (unsent) if it cannot be saved. */
    sending: async (index: number, row: SearchRow) => {
      state.sent += 1;
      state.unknown = [...state.unknown, unknownEntry(index, row)].sort((a, b) => a.index - b.index);
      try {
        await persist();
      } catch (error) {
        state.sent -= 1;
        answered(index);
        throw error;
      }
    },
    answered,
    /** Results came for it: kept in the state, saved before its rows are written (a throw stops the batch, the answer kept). */
    keep: async (index: number, results: readonly unknown[]) => {
      answered(index);
      if (!stateFile) return;
      state.answers = [...state.answers, { index, results: jsonText(results) }].sort(
        (a, b) => a.index - b.index,
      );
      await persist();
    },
    /** Its rows are written: the kept answer is dropped (saved with the next persist). */
    written: (index: number) => {
      state.answers = state.answers.filter((answer) => answer.index !== index);
    },
    // A status from the server (a 429, a 5xx, a 401) means it is known; a refused connection or a
    // failed DNS lookup means it never went out. A 429 (nothing processed) is not counted as sent.
    abandoned: (index: number, error: unknown) => {
      if (!(error instanceof HttpError) && !neverSent(error)) return;
      answered(index);
      if (error instanceof RateLimitedError || neverSent(error)) state.sent -= 1;
    },
  };
}

/** The rows a --resume passes over: sent by the stopped run, never answered (unless --resend-unknown). */
export function unansweredBefore(state: BatchState, resend: boolean): Set<number> {
  if (resend) return new Set();
  return new Set(state.unknown.filter((search) => search.index >= state.done).map((search) => search.index));
}

/** The answers a stopped run kept, by their place among the unique rows. */
export function keptAnswers(state: BatchState): Map<number, Array<Record<string, unknown>>> {
  return new Map(
    state.answers.map((answer) => [
      answer.index,
      parseJsonLossless(answer.results) as Array<Record<string, unknown>>,
    ]),
  );
}

function unknownEntry(index: number, row: SearchRow): UnknownSearch {
  return { index, line: row.line, query: row.query, location: row.location };
}

/** refused / DNS: the request provably never reached the server (api/errors.ts NetworkError kinds). */
function neverSent(error: unknown): boolean {
  return error instanceof NetworkError && (error.kind === 'refused' || error.kind === 'dns');
}
