// What every command receives (streams, environment, global options, the abort signal) is defined in
// src/session.ts, which mcp/ uses too; re-exported here for the commands, with commander's side.
import type { CommandContext } from '../session.js';

export type { CommandContext, GlobalOptions, Io } from '../session.js';

/** Builds a command's context from the commander command whose action is running. */
export type ContextFor = (command: import('commander').Command) => CommandContext;

// Defined in ui/ (the output layer decides stdout's colour too); re-exported for the commands.
export { colorAllowed, colorForced } from '../ui/messages.js';
