// Where a batch writes, and from where it starts: stdout; a FIFO or device (not resumable); a new
// -o FILE with FILE.state from the first moment; or, with --resume, a stopped run's partial file once
// the state file, the input, the output options and the partial file's content all agree.
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { type HeldFile, holdStateFile } from '../checkpoint/checkpoint-file.js';
import { isPartialNameFor, type OutputTarget, openOutput, resolveOutputPath } from '../output/destination.js';
import type { Renderer } from '../output/formats.js';
import type { BatchPlan } from './load-input.js';
import {
  type BatchState,
  checkSameBatch,
  checkStateAgreement,
  loadState,
  type OutputShape,
  STATE_VERSION,
  saveState,
  statePath,
  unreadable,
} from './state.js';

export interface BatchTarget {
  output: OutputTarget;
  /** Where progress is saved; undefined when not resumable. */
  stateFile: HeldFile | undefined;
  state: BatchState;
  /** Frees FILE.state for the next run (held from before it was read). Never throws. */
  release(): void;
}

export interface TargetOptions {
  file: string | undefined;
  resume: boolean;
  stdout: NodeJS.WritableStream;
  plan: BatchPlan;
  shape: OutputShape;
  renderer: Renderer;
}

// Set aside for the save that must fit once the disk is full (docs/batch.md, "Resume"). A search's answer
// is rarely over 64 KiB; 16 in flight at most.
const STATE_RESERVE = 2 ** 20;

export async function openBatchTarget(options: TargetOptions): Promise<BatchTarget> {
  const { file, plan, shape, renderer } = options;
  const where = file === undefined ? ({ kind: 'stdout' } as const) : await resolveOutputPath(file);
  if (where.kind === 'stdout' || where.kind === 'direct') {
    if (options.resume) {
      throw new UsageError('--resume needs -o <file>: the regular file the stopped batch was writing');
    }
    const output = await openOutput({
      ...(where.kind === 'stdout' ? {} : { file }),
      stdout: options.stdout,
      hash: where.kind === 'direct',
    });
    await output.write(renderer.start());
    return { output, stateFile: undefined, state: freshState(plan, shape), release: () => {} };
  }
  const name = file as string;
  // Held before it is read and until the run ends (docs/batch.md, "Resume": one batch per file).
  const held = await holdStateFile(statePath(name), 'batch state', { sync: false, reserve: STATE_RESERVE });
  try {
    return await openFileTarget(name, where.target, held, options);
  } catch (error) {
    held.release();
    throw error;
  }
}

async function openFileTarget(
  name: string,
  target: string,
  held: HeldFile,
  options: TargetOptions,
): Promise<BatchTarget> {
  const { plan, shape, renderer } = options;
  const release = () => held.release();
  const stopped = await loadState(held.name);
  if (options.resume) return { ...(await resumeTarget(name, target, held, stopped, options)), release };
  if (stopped) {
    throw new UsageError(
      `${held.name} holds a stopped batch for ${name}`,
      'continue it with --resume, or delete the .state file to start over',
    );
  }
  const fresh = freshState(plan, shape);
  const output = await openOutput({ file: name, stdout: options.stdout, hash: true });
  try {
    await output.write(renderer.start());
    // A table is laid out only once every row is known, an xlsx is a zip and geojson counts the items it
    // leaves out: there is nothing to resume from.
    if (!resumable(shape.format)) return { output, stateFile: undefined, state: fresh, release };
    const state: BatchState = {
      ...fresh,
      partial: basename(output.partialPath as string),
      bytes: output.bytes,
      sha256: output.digest(),
    };
    await saveState(held, state);
    return { output, stateFile: held, state, release };
  } catch (error) {
    await output.discard();
    throw error;
  }
}

async function resumeTarget(
  file: string,
  target: string,
  held: HeldFile,
  stopped: BatchState | undefined,
  { plan, shape, renderer, stdout }: TargetOptions,
): Promise<Omit<BatchTarget, 'release'>> {
  const stateFile = held.name;
  if (!resumable(shape.format)) {
    throw new UsageError(
      `${shape.format === 'table' ? 'a table' : `${shape.format} output`} cannot be resumed`,
      'use --format csv, tsv, json or ndjson for a resumable batch',
    );
  }
  if (!stopped) throw new UsageError(`nothing to resume: ${stateFile} does not exist`);
  checkStateAgreement(stateFile, stopped);
  checkSameBatch(stopped, plan, shape);
  // The state names the partial file; it must be one this run could have made for this target.
  const partial = join(dirname(target), stopped.partial);
  if (!isPartialNameFor(target, partial))
    throw unreadable(stateFile, `partial names another file than ${file}`);
  const output = await openOutput({
    file,
    stdout,
    resume: { partial, bytes: stopped.bytes, sha256: stopped.sha256 },
  });
  primeRenderer(renderer, stopped.results);
  return { output, stateFile: held, state: stopped };
}

// Brings a new renderer to where the stopped run's was: a streaming renderer only keeps whether a row
// came before (json's `,`), so one row rendered and thrown away stands for those already written.
function primeRenderer(renderer: Renderer, rowsWritten: number): void {
  renderer.start();
  if (rowsWritten > 0) renderer.row({});
}

const resumable = (format: OutputShape['format']) =>
  format !== 'table' && format !== 'xlsx' && format !== 'geojson';

function freshState(plan: BatchPlan, shape: OutputShape): BatchState {
  return {
    version: STATE_VERSION,
    input: plan.fingerprint,
    total: plan.searches,
    output: shape,
    partial: '',
    done: 0,
    bytes: 0,
    sha256: '',
    results: 0,
    searched: 0,
    sent: 0,
    failed: [],
    unknown: [],
    answers: [],
    seen: [],
  };
}
