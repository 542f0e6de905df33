// FILE.state: how far a batch writing to -o FILE got, so --resume can continue it. Searches are
// written in input order, so "done" is always a prefix of the unique rows plus the byte length and
// SHA-256 of the partial file after the last fully written search. Rewritten atomically (a temporary
// file renamed over it, through a symlink: checkpoint/checkpoint-file.ts) when a search goes out, when
// its answer comes (the answer kept in it until its rows are written) and after every search, so a
// crash, Ctrl-C or a full disk at any moment leaves a state that matches the partial file, names the
// searches sent without an answer and keeps the answers not yet written. The batch holds the file for
// its whole run (one writer). Read back, it is checked whole (state-check.ts) before anything is sent.
import { readFile, rm } from 'node:fs/promises';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';
import type { HeldFile } from '../checkpoint/checkpoint-file.js';
import { errorCode } from '../output/destination.js';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { describeIssue } from '../text/schema-issues.js';

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

const FAILED_SEARCH = z.strictObject({
  line: z.int().check(z.minimum(1)),
  query: z.string(),
  location: z.string(),
  message: z.string(),
});

/** A search sent whose answer never came (a stop, a reset): it may have run and spent a live search. */
const UNKNOWN_SEARCH = z.strictObject({
  /** Its place among the unique rows. */
  index: count(),
  line: z.int().check(z.minimum(1)),
  query: z.string(),
  location: z.string(),
});

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

/** Writes the state atomically through the batch's held file. */
export async function saveState(file: HeldFile, state: BatchState): Promise<void> {
  await file.write(`${JSON.stringify(state)}\n`);
}

/** undefined when there is no state file; UsageError (exit 2) when it is not one this leadctl wrote. */
export async function loadState(file: string): Promise<BatchState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${file}: ${errorCode(error) ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable(file, 'it is not valid JSON');
  }
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
