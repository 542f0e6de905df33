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

/** Colour only when neither --no-color nor NO_COLOR says otherwise (and, where used, on a terminal). */
export function colorAllowed({ globals, io }: Pick<CommandContext, 'globals' | 'io'>): boolean {
  return globals.color !== false && !io.env.NO_COLOR;
}

/**
 * FORCE_COLOR or CLICOLOR_FORCE (set, not empty, not "0" or "false"): colour on stdout and stderr even
 * when they are not a terminal, for `leadctl ... | less -R`. NO_COLOR and --no-color still win.
 * Files written with -o never get colour.
 */
export function colorForced(ctx: Pick<CommandContext, 'globals' | 'io'>): boolean {
  const forces = (value: string | undefined) =>
    value !== undefined && value !== '' && value !== '0' && value !== 'false';
  return colorAllowed(ctx) && (forces(ctx.io.env.FORCE_COLOR) || forces(ctx.io.env.CLICOLOR_FORCE));
}
