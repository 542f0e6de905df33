// What every command receives: the process's streams and environment (injectable for tests), the
// global options (defined in options.ts; their type is inferred from that definition), and the
// signal that Ctrl-C / SIGTERM abort. It loads no commander: lower layers and the MCP server read it.
import type { createProgram } from './options.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The program every command is registered on; its commands' actions see the global options typed. */
export type Program = ReturnType<typeof createProgram>;

/** The global options as commander parsed them (`color`/`pager` are false with --no-color/--no-pager). */
export type GlobalOptions = Partial<ReturnType<Program['opts']>>;

export interface CommandContext {
  io: Io;
  globals: GlobalOptions;
  /** Aborted on the first SIGINT/SIGTERM. */
  signal: AbortSignal;
}

/** Builds a command's context from the commander command whose action is running. */
export type ContextFor = (command: { optsWithGlobals(): GlobalOptions }) => CommandContext;

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
