// What every command receives: the process's streams and environment (injectable for tests), the
// global options, and the signal that Ctrl-C / SIGTERM abort.

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The program-level options of cli.md's "Global options" table, as commander parsed them. */
export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  sandbox?: boolean;
  timeout?: string;
  retries?: string;
  maxWait?: string;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** false with --no-pager. */
  pager?: boolean;
}

export interface CommandContext {
  io: Io;
  globals: GlobalOptions;
  /** Aborted on the first SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** Builds a command's context from the commander command whose action is running. */
export type ContextFor = (command: import('commander').Command) => CommandContext;

// Moved down to ui/ (the output layer decides stdout's colour too); re-exported for the commands.
export { colorAllowed, colorForced } from '../ui/messages.js';
