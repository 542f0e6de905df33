// The entry point: parses argv, runs one command, and is the only place that turns an outcome into
// an exit code. (bin/leadctl.cjs answers a bare `--version` before loading this.)
import { closeSync, fstatSync, openSync } from 'node:fs';
import { setTimeout as wait } from 'node:timers/promises';
import { CommanderError } from '@commander-js/extra-typings';
import { ExitCode, INTERRUPT_EXIT, InterruptedError, type InterruptSignal } from './api/errors.js';
import { buildProgram } from './program.js';
import type { Io } from './session.js';
import {
  commandLineFailure,
  type Failure,
  failureJson,
  failureLines,
  failureOf,
  wrapWords,
} from './ui/error-lines.js';
import { safeForStderr } from './ui/ui.js';

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const stdoutFailure = watchStdout(io.stdout);
  // A terminal closed under the run (SIGHUP) fails every later write to it (EIO): the run still has
  // its cleanup to do, and nobody is left to read what it would say.
  io.stderr.on('error', () => {});
  const interrupts = trapInterrupts();
  let code: number;
  let hungUp = false;
  try {
    const program = buildProgram(io, interrupts.signal);
    // Bare `leadctl` asks what it can do: help on stdout, exit 0 (as gh does).
    await program.parseAsync(argv.length === 0 ? ['--help'] : argv, { from: 'user' });
    code = ExitCode.ok;
  } catch (error) {
    // A question's terminal gone (ui/prompts.ts): its SIGHUP is waited for (1 s at most), not left to kill.
    hungUp = error instanceof InterruptedError && error.signal === 'SIGHUP';
    if (hungUp) await wait(1_000, null, { signal: interrupts.signal }).catch(() => {});
    code = renderError(error, io, argv);
  } finally {
    if (!hungUp) interrupts.release();
  }
  // Help, completion scripts, config values: whatever a command printed must have reached stdout.
  const failure = await stdoutFailure();
  if (failure !== undefined && code === ExitCode.ok) {
    io.stderr.write(`leadctl: cannot write standard output: ${failure}\n`);
    return ExitCode.internal;
  }
  if (hungUp || (interrupts.signal.reason as InterruptedError | undefined)?.signal === 'SIGHUP')
    leaveHungUpTerminal();
  return code;
}

// Node 20 aborts at exit restoring a hung-up terminal's modes (nodejs/node#51519, fixed in 22): after SIGHUP,
// std streams on any character device go to /dev/null, which Node leaves alone (node:tty's isatty: ~18 ms).
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

// A listener on stdout (without one an error crashes Node with a stack trace) and, at the end, an empty write
// that resolves once all before it was handed over. EPIPE (`| head -1`) is a quiet exit 0; a full disk or an
// I/O error (`> /dev/full`) is exit 1. Data output has its own listener (output/destination.ts).
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

// SIGINT, SIGTERM and SIGHUP alike: the first aborts the run (exit 128 + its number). A second Ctrl-C or
// SIGTERM quits at once; a second SIGHUP (kernel and shell each send one) changes nothing.
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

/** A failure's lines on stderr (fitted to a terminal), the stack with --verbose, then JSON if asked. */
function renderError(error: unknown, io: Io, argv: string[]): number {
  let failure: Failure;
  let stack: string | undefined;
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
    // commander.help: a command with subcommands ran without one; commander printed its help.
    if (error.code === 'commander.help') return ExitCode.usage;
    failure = commandLineFailure(error);
  } else {
    if (error instanceof Error && error.name === 'BrokenPipeError') return ExitCode.ok;
    failure = failureOf(error);
    if (error instanceof Error && !(error instanceof InterruptedError)) stack = error.stack;
  }
  // Messages quote the server and the file system: masked and sanitized like every stderr line.
  for (const field of ['message', 'hint', 'partialFile'] as const) {
    if (failure[field]) failure[field] = safeForStderr(failure[field]);
  }
  const width = io.stderr.isTTY ? io.stderr.columns || 80 : Number.POSITIVE_INFINITY;
  const lines = failureLines(failure).flatMap((line) => wrapWords(line, width, '  '));
  if (stack && (argv.includes('--verbose') || io.env.LEADCTL_DEBUG === '1')) lines.push(safeForStderr(stack));
  if (wantsJson(argv)) lines.push(failureJson(failure));
  io.stderr.write(`${lines.join('\n')}\n`);
  return failure.exit;
}

/** `--json`, `-f json`, `--format ndjson`: an agent's run, whose error also ends stderr as JSON. */
function wantsJson(argv: string[]): boolean {
  const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return words.some((word, at) => {
    if (word === '--json') return true;
    const format =
      /^(?:--format=|-f)(.+)$/.exec(word)?.[1] ?? (/^(-f|--format)$/.test(word) ? words[at + 1] : '');
    return format === 'json' || format === 'ndjson';
  });
}
