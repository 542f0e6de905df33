// Whether a state file that parsed (state.ts) also adds up: its counts agree with one another and
// with the input it claims to belong to. The partial file's size and content are checked when it is
// reopened (output/destination.ts). Any disagreement refuses the resume before a request is sent.
import { UsageError } from '../api/errors.js';
import { type BatchState, type OutputShape, shapeDifferences, unreadable } from './state.js';

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
