// Where a batch writes, and from where it starts: stdout, a new -o FILE (with FILE.state from the
// first moment, so a Ctrl-C at any point can be resumed), or a stopped run's FILE.partial reopened by
// --resume after checking that the input and the output options are the ones it was started with.
import { UsageError } from '../api/errors.js';
import type { Renderer } from '../output/index.js';
import { type BatchOutput, openFileOutput, openStdoutOutput } from './append-output.js';
import type { BatchPlan } from './load-input.js';
import {
  type BatchState,
  loadState,
  type OutputShape,
  STATE_VERSION,
  saveState,
  shapeDifferences,
  statePath,
} from './state.js';

export interface BatchTarget {
  output: BatchOutput;
  /** Where the starting state came from and where progress is saved; undefined when not resumable. */
  stateFile: string | undefined;
  state: BatchState;
}

export interface TargetOptions {
  file: string | undefined;
  resume: boolean;
  stdout: NodeJS.WritableStream;
  plan: BatchPlan;
  shape: OutputShape;
  renderer: Renderer;
}

export async function openBatchTarget(options: TargetOptions): Promise<BatchTarget> {
  const { file, plan, shape, renderer } = options;
  const fresh = freshState(plan, shape);
  if (file === undefined) {
    const output = await openStdoutOutput(options.stdout);
    await output.write(renderer.start());
    return { output, stateFile: undefined, state: fresh };
  }
  const stateFile = statePath(file);
  const stopped = await loadState(stateFile);
  if (options.resume) return resumeTarget(file, stateFile, stopped, options);
  if (stopped) {
    throw new UsageError(
      `${stateFile} holds a stopped batch for ${file}`,
      'continue it with --resume, or delete the .state file to start over',
    );
  }
  const output = await openFileOutput(file);
  await output.write(renderer.start());
  // A table is laid out only once every row is known: there is nothing to resume from.
  if (shape.format === 'table') return { output, stateFile: undefined, state: fresh };
  const state = { ...fresh, bytes: output.bytes };
  await saveState(stateFile, state);
  return { output, stateFile, state };
}

async function resumeTarget(
  file: string,
  stateFile: string,
  stopped: BatchState | undefined,
  { plan, shape, renderer }: TargetOptions,
): Promise<BatchTarget> {
  if (shape.format === 'table') {
    throw new UsageError(
      'a table cannot be resumed',
      'use --format csv, tsv, json or ndjson for a resumable batch',
    );
  }
  if (!stopped) throw new UsageError(`nothing to resume: ${stateFile} does not exist`);
  if (stopped.input !== plan.fingerprint || stopped.total !== plan.unique.length) {
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
  const output = await openFileOutput(file, stopped.bytes);
  primeRenderer(renderer, stopped.results);
  return { output, stateFile, state: stopped };
}

/**
 * Brings a new renderer to where the stopped run's was. Its start chunk is already in the file; the
 * only state a streaming renderer keeps is whether a row came before (json's `,` separator), so one
 * row rendered and thrown away stands for all the rows already written.
 */
function primeRenderer(renderer: Renderer, rowsWritten: number): void {
  renderer.start();
  if (rowsWritten > 0) renderer.row({});
}

function freshState(plan: BatchPlan, shape: OutputShape): BatchState {
  return {
    version: STATE_VERSION,
    input: plan.fingerprint,
    total: plan.unique.length,
    output: shape,
    done: 0,
    bytes: 0,
    results: 0,
    searched: 0,
    failed: [],
    seen: [],
  };
}
