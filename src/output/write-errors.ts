// Errors of the output writer, in words a user can act on.
import { ExitCode, LeadError } from '../api/errors.js';

/** stdout's reader went away (EPIPE, e.g. `leadctl leads --all | head`): the CLI ends quietly, exit 0. */
export class BrokenPipeError extends Error {
  constructor(message = 'standard output was closed by its reader') {
    super(message);
    this.name = 'BrokenPipeError';
  }
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a parent is not a directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
};

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** "permission denied" for an EACCES, else the error's code or message. */
export function reasonOf(error: unknown): string {
  const code = errorCode(error);
  if (code && REASONS[code]) return REASONS[code];
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** A failure while writing (not opening): the environment's fault, not the user's flags. */
export function writeFailure(target: string, error: unknown): LeadError {
  return new LeadError(`cannot write ${target}: ${reasonOf(error)}`, {
    exitCode: ExitCode.internal,
    cause: error,
  });
}
