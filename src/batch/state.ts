// FILE.state: how far a batch writing to -o FILE got, so --resume can continue it. Searches are
// written in input order, so "done" is always a prefix of the unique rows plus the byte length and
// SHA-256 of the partial file after the last fully written search. Rewritten atomically (a temporary
// file renamed over it) after every search, so a crash or Ctrl-C at any moment leaves a state that
// matches the partial file. Read back, it is checked whole (state-check.ts) before anything is sent.
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { UsageError } from '../api/errors.js';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { errorCode } from '../output/write-errors.js';
import { describeIssue } from '../text/schema-issues.js';

export const STATE_VERSION = 2;

const count = () => z.int().check(z.minimum(0));
const SHA256 = /^[0-9a-f]{64}$/;

/** The options that shape the bytes of the output: a resume must use the same ones. */
const OUTPUT_SHAPE = z.strictObject({
  format: z.enum(OUTPUT_FORMATS),
  fields: z.nullable(z.array(z.string().check(z.minLength(1)))),
  header: z.boolean(),
  sanitize: z.boolean(),
  unique: z.boolean(),
});

const FAILED_SEARCH = z.strictObject({
  line: z.int().check(z.minimum(1)),
  query: z.string(),
  location: z.string(),
  message: z.string(),
});

export const BATCH_STATE = z.strictObject({
  version: z.literal(STATE_VERSION),
  /** SHA-256 of the unique searches (dedupe.ts inputFingerprint). */
  input: z.string().check(z.regex(SHA256)),
  /** Unique searches in the input. */
  total: z.int().check(z.minimum(1)),
  output: OUTPUT_SHAPE,
  /** The partial file's name, beside the -o target (partial-file.ts). */
  partial: z.string().check(z.regex(/^[^/\\]+\.[0-9a-f]{8}\.partial$/)),
  /** How many unique rows, from the start, are finished (written, or failed with a 422). */
  done: count(),
  /** Length of the partial file in bytes after the last finished search, and their SHA-256. */
  bytes: count(),
  sha256: z.string().check(z.regex(SHA256)),
  /** Results written so far (after --unique). */
  results: count(),
  searched: count(),
  failed: z.array(FAILED_SEARCH),
  /** place_ids written so far, for --unique; empty without it. */
  seen: z.array(z.string()),
});

export type OutputShape = z.infer<typeof OUTPUT_SHAPE>;
export type FailedSearch = z.infer<typeof FAILED_SEARCH>;
export type BatchState = z.infer<typeof BATCH_STATE>;

export function statePath(outputFile: string): string {
  return `${outputFile}.state`;
}

/**
 * Writes the state through a temporary file of a name no one else uses (created exclusively: a link
 * planted there is never followed). `exclusive`: the first save of a new batch, which refuses to
 * replace a state file another run created meanwhile (link() fails where rename() would replace).
 */
export async function saveState(file: string, state: BatchState, { exclusive = false } = {}): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(state)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (!exclusive) {
      await rename(temp, file);
      return;
    }
    try {
      await link(temp, file);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
      throw new UsageError(
        `${file} was created by another batch writing the same file`,
        'wait for it to finish, or write to another -o file',
      );
    }
  } finally {
    await rm(temp, { force: true });
  }
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
  if (typeof version === 'number' && version !== STATE_VERSION) {
    throw unreadable(file, `it was written by another version of leadctl (state version ${version})`);
  }
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

export async function removeState(file: string): Promise<void> {
  await rm(file, { force: true });
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
  return differences;
}
