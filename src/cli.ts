// The entry point: parses argv, runs one command, and is the only place that turns an outcome into
// an exit code. (bin/leadctl.cjs answers a bare `--version` before loading this; a program calling
// main() gets the same answer from commander.)
import { closeSync, fstatSync, openSync } from 'node:fs';
import { ExitCode, INTERRUPT_EXIT, InterruptedError, type InterruptSignal, LeadError } from './api/errors.js';
import { buildProgram } from './program.js';
import type { Io } from './session.js';
import { commandLineErrorLines, errorLines, partialFileOf } from './ui/error-lines.js';
import { safeForStderr } from './ui/ui.js';

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const stdoutFailure = watchStdout(io.stdout);
  // A terminal closed under the run (SIGHUP) fails every later write to it (EIO): the run still has
  // its cleanup to do, and nobody is left to read what it would say.
  io.stderr.on('error', () => {});
  const interrupts = trapInterrupts();
  let code: number;
  try {
    const program = buildProgram(io, interrupts.signal);
    // Bare `leadctl` asks what it can do: help on stdout, exit 0 (as gh does).
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
    code = ExitCode.ok;
  } catch (error) {
    const verbose = argv.includes('--verbose') || io.env.LEADCTL_DEBUG === '1';
    code = renderError(error, io, verbose);
  } finally {
    interrupts.release();
  }
  // Help, completion scripts, config values: whatever a command printed must have reached stdout.
  const failure = await stdoutFailure();
  if (failure !== undefined && code === ExitCode.ok) {
    io.stderr.write(`leadctl: cannot write standard output: ${failure}\n`);
    return ExitCode.internal;
  }
  if ((interrupts.signal.reason as InterruptedError | undefined)?.signal === 'SIGHUP') leaveHungUpTerminal();
  return code;
}

/**
 * Node 20 aborts at exit when it cannot restore the modes of a terminal that hung up (nodejs/node#51519,
 * fixed in 22 and 24): after SIGHUP, stdin, stdout and stderr on a terminal (any character device: all
 * is written by now) are pointed at /dev/null, which Node leaves alone. (node:tty's isatty would cost
 * every run's start-up ~18 ms.)
 */
function leaveHungUpTerminal(): void {
  for (const fd of [0, 1, 2]) {
    try {
      if (!fstatSync(fd).isCharacterDevice()) continue;
      closeSync(fd);
      openSync('/dev/null', fd === 0 ? 'r' : 'w'); // the lowest free descriptor: fd again
    } catch {
      // Closed already: nothing for Node to restore.
    }
  }
}

function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Opened by the few commands that read it: setting up stdin costs every other run ~1 ms.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
  };
}

const WRITE_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EBADF: 'it is closed',
};

/**
 * One check for every command that prints: a listener on stdout (without one an error would crash
 * Node with a stack trace) and, at the end, a write of nothing that resolves once everything before it
 * was handed over. `leadctl --help | head -1` closes the pipe (EPIPE): the reader's choice, a quiet
 * exit 0. A full disk or an I/O error (`> /dev/full`) is a failure, exit 1. Data output has its own
 * listener in output/target.ts, which reports the same way.
 */
function watchStdout(stdout: Io['stdout']): () => Promise<string | undefined> {
  let failure: unknown;
  stdout.on('error', (error: unknown) => {
    failure ??= error;
  });
  return async () => {
    // Writes still queued (a pipe) are waited for; a synchronous stream (a file, /dev/full) has
    // already failed, and says so on the next turn.
    if (((stdout as { writableLength?: number }).writableLength ?? 0) > 0) {
      await new Promise<void>((resolve) => {
        stdout.write('', () => resolve());
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    const code = (failure as { code?: unknown } | undefined)?.code;
    if (failure === undefined || code === 'EPIPE') return undefined;
    return typeof code === 'string' ? (WRITE_REASONS[code] ?? code) : String(failure);
  };
}

/**
 * SIGINT (Ctrl-C), SIGTERM and SIGHUP (a closed terminal) alike: the first aborts the run (requests stop,
 * output is closed, locks released, exit 128 + the signal's number). A second Ctrl-C or SIGTERM quits at
 * once; a second SIGHUP (the kernel and the shell each send one when a terminal closes) changes nothing.
 */
function trapInterrupts() {
  const controller = new AbortController();
  const onSignal = (signal: InterruptSignal) => {
    if (!controller.signal.aborted) controller.abort(new InterruptedError(signal));
    else if (signal !== 'SIGHUP') process.exit(INTERRUPT_EXIT[signal]);
  };
  const signals = Object.keys(INTERRUPT_EXIT) as InterruptSignal[];
  for (const signal of signals) process.on(signal, onSignal);
  return {
    signal: controller.signal,
    // Kept after a stop: a late SIGHUP (the shell's after the kernel's) must not kill the exiting run.
    release: () => {
      if (!controller.signal.aborted) for (const signal of signals) process.off(signal, onSignal);
    },
  };
}

interface CommanderLikeError {
  code: string;
  exitCode: number;
  message: string;
  /** Set by program.ts: the command whose line was refused. */
  commandPath?: string;
}

function isCommanderError(error: unknown): error is CommanderLikeError {
  return (
    typeof error === 'object' &&
    error !== null &&
    String((error as { code?: unknown }).code).startsWith('commander.')
  );
}

function renderError(error: unknown, io: Io, verbose: boolean): number {
  if (isCommanderError(error)) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
    // commander.help: a command with subcommands ran without one; commander printed its help.
    if (error.code === 'commander.help') return ExitCode.usage;
    const failure = { code: error.code, message: error.message, commandPath: error.commandPath ?? '' };
    for (const line of commandLineErrorLines(failure)) io.stderr.write(`${safeForStderr(line)}\n`);
    return ExitCode.usage;
  }
  if (error instanceof Error && error.name === 'BrokenPipeError') return ExitCode.ok;
  // Messages quote the server and the file system: masked and sanitized like every stderr line.
  const say = (text: string) => io.stderr.write(`${safeForStderr(text)}\n`);
  const partial = partialFileOf(error);
  const partialNote = () => {
    if (partial !== undefined) say(`the output received so far is in ${partial}`);
  };
  if (error instanceof LeadError) {
    if (error instanceof InterruptedError) {
      say(`leadctl: ${error.message}`);
      partialNote();
      return error.exitCode;
    }
    for (const line of errorLines(error)) say(line);
    partialNote();
    if (verbose && error.stack) say(error.stack);
    return error.exitCode;
  }
  for (const line of errorLines(error)) say(line);
  partialNote();
  if (verbose && error instanceof Error && error.stack) say(error.stack);
  else say('run again with --verbose for details, and please report it');
  return ExitCode.internal;
}
