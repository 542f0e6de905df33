// Two ways to run leadctl, both with a clean environment and a private config folder:
// - runCli: main(argv, io) of src/cli.ts inside the test process, for what a run does (options parsed,
//   requests sent, stdout and stderr text, files written, the exit code main returns). Most tests.
// - runBinary / spawnCli: the BUILT leadctl (bin/leadctl.cjs -> dist/) as a real process, only where the
//   process is the point: signals, terminals, bytes through a pipe, the launcher, start-up, exit paths.
// docs/testing.md says which to use.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { execa, type Options, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/session.js';
import { tempDir } from './temp.js';

export const BIN = resolve(import.meta.dirname, '../../bin/leadctl.cjs');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to the clean environment (a value of undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /** Standard input; without it, stdin is empty (as /dev/null). */
  input?: string | Uint8Array;
  cwd?: string;
}

/** A fresh, empty config home, so no test sees another's profiles or the user's own (removed after). */
export async function tempConfigHome(): Promise<string> {
  return tempDir('home');
}

const homesOfFiles = new Map<string, { config: string; cache: string; state: string }>();

/**
 * The homes of runs whose test gives none, one set per test file (a worker's files share this module):
 * an empty config (never the user's own profiles), the usage ledger (never the user's ~/.local/state),
 * and a cache (leadctl keeps none; should it ever write one, it goes here).
 */
function homesOfThisFile() {
  const file = expect.getState().testPath ?? '';
  let homes = homesOfFiles.get(file);
  if (homes === undefined) {
    homes = {
      config: tempDir('config', 'file'),
      cache: tempDir('cache', 'file'),
      state: tempDir('state', 'file'),
    };
    homesOfFiles.set(file, homes);
  }
  return homes;
}

/**
 * Only what a process needs: no LEADCTL_*, NO_COLOR, FORCE_COLOR, TERM, COLUMNS or proxy leaking in
 * from the developer's shell, and no config but the test's own.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const homes = homesOfThisFile();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: homes.config,
    XDG_CACHE_HOME: homes.cache,
    XDG_STATE_HOME: homes.state,
    ...extra,
  };
}

class Collected extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

/**
 * leadctl run in this process: the streams are plain ones, not terminals (as pipes are), stdin is the
 * input or empty, and `cwd` is entered for the run (vitest runs a file's tests one at a time, each file
 * in a process of its own).
 */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  const { input } = options;
  const io: Io = {
    stdout,
    stderr,
    stdin: Readable.from(input === undefined ? [] : [Buffer.from(input)], { objectMode: false }),
    env: cleanEnv(options.env),
  };
  const cwd = process.cwd();
  if (options.cwd) process.chdir(options.cwd);
  try {
    const exitCode = await main(args, io);
    return { exitCode, stdout: stdout.text, stderr: stderr.text };
  } finally {
    process.chdir(cwd);
  }
}

function assertBuilt(): void {
  if (!existsSync(resolve(import.meta.dirname, '../../dist/cli.js'))) {
    throw new Error(
      'dist/ is missing: run `npm run build` before the tests that spawn leadctl (npm test does)',
    );
  }
}

/** The built leadctl as a process, for tests that drive it (signals, pipes, stdin as it comes). */
export function spawnCli(
  args: string[],
  options: Options & { env?: Record<string, string | undefined> } = {},
): ResultPromise {
  assertBuilt();
  return execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    stripFinalNewline: false,
    // A test's kill() is a signal leadctl must handle: execa's SIGKILL 5 s later would end a run that a
    // loaded machine keeps cleaning up for longer.
    forceKillAfterDelay: false,
    ...options,
    env: cleanEnv(options.env),
  });
}

/** runCli's run, through the built binary: for exit codes and output of the real process. */
export async function runBinary(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const result = await spawnCli(args, {
    ...(options.input === undefined ? { stdin: 'ignore' } : { input: options.input }),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
