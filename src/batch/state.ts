// FILE.state: how far a batch writing to -o FILE got, so --resume can continue it. Searches are
// written in input order, so "done" is always a prefix of the unique rows plus the byte length of
// FILE.partial after the last fully written search. Written atomically (temp file + rename) after
// every search, so a crash or Ctrl-C at any moment leaves a state that matches the .partial file.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';

export const STATE_VERSION = 1;

/** The options that shape the bytes of the output: a resume must use the same ones. */
export interface OutputShape {
  format: string;
  fields: string[] | null;
  header: boolean;
  sanitize: boolean;
  unique: boolean;
}

export interface FailedSearch {
  line: number;
  query: string;
  location: string;
  message: string;
}

export interface BatchState {
  version: number;
  input: string;
  /** Unique searches in the input. */
  total: number;
  output: OutputShape;
  /** How many unique rows, from the start, are finished (written, or failed with a 422). */
  done: number;
  /** Length of FILE.partial in bytes after the last finished search. */
  bytes: number;
  /** Results written so far (after --unique). */
  results: number;
  searched: number;
  failed: FailedSearch[];
  /** place_ids written so far, for --unique; empty without it. */
  seen: string[];
}

export function statePath(outputFile: string): string {
  return `${outputFile}.state`;
}

export async function saveState(file: string, state: BatchState): Promise<void> {
  const temp = `${file}.tmp`;
  await writeFile(temp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** undefined when there is no state file; UsageError when it is not one of ours. */
export async function loadState(file: string): Promise<BatchState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const state = JSON.parse(text) as BatchState;
    if (
      state.version === STATE_VERSION &&
      typeof state.done === 'number' &&
      typeof state.bytes === 'number'
    ) {
      return state;
    }
  } catch {
    // fall through to the refusal below
  }
  throw new UsageError(
    `${file} is not a batch state file leadctl can read`,
    `delete it to start the batch over`,
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
