// The entry point: parses argv, runs one command, and is the only place that turns an outcome into
// an exit code. `--version` answers before commander or anything heavy loads.
import { ExitCode, InterruptedError, LeadError } from './api/errors.js';
import type { Io } from './commands/context.js';
import { VERSION } from './version.js';

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  ignoreClosedStdout(io.stdout);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  const interrupts = trapInterrupts();
  try {
    const { buildProgram } = await import('./program.js');
    const program = buildProgram(io, interrupts.signal);
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    const verbose = argv.includes('--verbose') || io.env.LEADCTL_DEBUG === '1';
    return renderError(interrupts.signal.aborted ? interruptedOr(error) : error, io, verbose);
  } finally {
    interrupts.release();
  }
}

function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/**
 * `leadctl --help | head -1`: once the reader is gone, further writes fail with EPIPE. That is the
 * reader's choice, not an error, yet without a listener Node crashes with a stack trace. Data output
 * has its own listener in the writer, which turns errors into exit codes; for help and notices there
 * is nothing better to do with a stdout that can't be written than to stop writing to it.
 */
function ignoreClosedStdout(stdout: Io['stdout']): void {
  stdout.on('error', () => {});
}

/** The first Ctrl-C or SIGTERM aborts the run (requests stop, output is closed); a second one quits at once. */
function trapInterrupts() {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(ExitCode.interrupted);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** After an interrupt, whatever error the abort surfaced as (AbortError, a reset) is the interrupt. */
function interruptedOr(error: unknown): unknown {
  return error instanceof LeadError && error.exitCode !== ExitCode.internal ? error : new InterruptedError();
}

interface CommanderLikeError {
  code: string;
  exitCode: number;
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
    // commander has already written its message (and suggestion) to stderr.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
    return ExitCode.usage;
  }
  if (error instanceof Error && error.name === 'BrokenPipeError') return ExitCode.ok;
  if (error instanceof LeadError) {
    if (error instanceof InterruptedError) {
      io.stderr.write('leadctl: interrupted\n');
      return error.exitCode;
    }
    io.stderr.write(`leadctl: ${error.message}\n`);
    if (error.hint) io.stderr.write(`${error.hint}\n`);
    if (verbose && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`leadctl: unexpected error: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  else io.stderr.write('run again with --verbose for details, and please report it\n');
  return ExitCode.internal;
}
