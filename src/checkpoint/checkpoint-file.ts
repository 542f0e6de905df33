// The checkpoint file of `--checkpoint FILE` (docs/checkpoint.md): which list it belongs to and the ids
// at its newest end; read back through a schema, so a tampered file or another program's is exit 2.

import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { ExitCode, LeadError, UsageError } from '../api/errors.js';
import { type Lock, LockedError, type LockHolder, takeLock, WHOLE_RUN } from '../lock.js';
import { errorCode, reasonOf, resolveOutputPath, writeFailure } from '../output/destination.js';
import { describeIssue } from '../text/schema-issues.js';

export const CHECKPOINT_VERSION = 1;

/** Ids kept from the newest end: deletions of fewer than this many there still leave a boundary. */
export const HEAD_IDS = 100;

const CHECKPOINT = z.strictObject({
  kind: z.literal('leadctl-checkpoint'),
  version: z.literal(CHECKPOINT_VERSION),
  resource: z.enum(['leads', 'history']),
  profile: z.string().check(z.minLength(1)),
  baseUrl: z.string().check(z.minLength(1)),
  /** Ids of the list's first items, newest first, as the last committed run saw them at its start. */
  head: z.array(z.string().check(z.minLength(1))).check(z.maxLength(HEAD_IDS)),
  /** meta.total then: for the user's eyes and for the report of what changed. */
  total: z.int().check(z.minimum(0)),
  /** When that run committed (ISO 8601). Not used to decide anything. */
  savedAt: z.string(),
});

export type Checkpoint = z.infer<typeof CHECKPOINT>;

/** What a checkpoint must match: the list this run reads. */
export interface CheckpointOwner {
  resource: 'leads' | 'history';
  profile: string;
  baseUrl: string;
}

/** undefined when FILE does not exist yet (a first run); UsageError (exit 2) when it is not usable. */
export async function loadCheckpoint(file: string, owner: CheckpointOwner): Promise<Checkpoint | undefined> {
  const json = await readStateJson(file, (why) => notACheckpoint(file, why));
  if (json === undefined) return undefined;
  const parsed = CHECKPOINT.safeParse(json);
  if (!parsed.success) throw notACheckpoint(file, describeIssue(parsed.error.issues[0] as z.core.$ZodIssue));
  const checkpoint = parsed.data;
  for (const key of ['resource', 'profile', 'baseUrl'] as const) {
    if (checkpoint[key] !== owner[key]) {
      throw new UsageError(
        `checkpoint ${file} belongs to another list: ${key === 'baseUrl' ? 'base URL' : key} ${checkpoint[key]}, not ${owner[key]}`,
        'use one checkpoint file per resource, profile and server',
      );
    }
  }
  return checkpoint;
}

/** A checkpoint or batch state file as JSON; undefined when there is none yet, `refused(why)` when not JSON. */
export async function readStateJson(file: string, refused: (why: string) => Error): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${file}: ${reasonOf(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw refused('it is not valid JSON');
  }
}

/** The file's text: written by the run through its held file (below), never directly. */
export function checkpointText(checkpoint: Checkpoint): string {
  return `${JSON.stringify(checkpoint, null, 2)}\n`;
}

function notACheckpoint(file: string, why: string): UsageError {
  return new UsageError(
    `${file} is not a leadctl checkpoint: ${why}`,
    'name another --checkpoint file, or delete this one to export everything again',
  );
}

// A checkpoint or FILE.state, locked for the run and written in two steps, so a lack of space fails before
// the caller commits anything else (docs/checkpoint.md, "One run at a time", "When FILE moves").
export type HeldFile = Awaited<ReturnType<typeof holdStateFile>>;
export type PreparedWrite = Awaited<ReturnType<HeldFile['prepare']>>;

/**
 * Resolves and locks `name` (`what`, for messages: "checkpoint"); one held or unlockable is exit 2 before any
 * request. `reserve` bytes in the lock folder keep room for the one write that must fit on a full disk.
 */
export async function holdStateFile(name: string, what: string, { sync = true, reserve = 0 } = {}) {
  const where = await resolveOutputPath(name);
  if (where.kind !== 'file') throw new UsageError(`the ${what} file ${name} must be a regular file`);
  const { target } = where;
  let lock: Lock;
  try {
    lock = await takeLock(`${target}.lock`, WHOLE_RUN);
  } catch (error) {
    if (error instanceof LockedError) {
      throw new UsageError(
        `${name} is in use by another leadctl run (${describeHolder(error.holder)}); nothing was sent`,
        `wait for that run to end; if it is not leadctl, remove ${error.lockPath}`,
      );
    }
    // A full disk is exit 1, as for any output; a folder that is missing or not writable is exit 2.
    if (['ENOSPC', 'EDQUOT', 'EIO'].includes(errorCode(error) ?? ''))
      throw writeFailure(`${what} ${name}`, error);
    throw new UsageError(`cannot write ${what} ${name}: ${reasonOf(error)}`);
  }
  const failure = (error: unknown) => writeFailure(`${what} ${name}`, error);
  /** Writes `text` to a new temporary file beside the target and syncs it; nothing is replaced yet. */
  const prepare = async (text: string) => {
    const temp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // 'wx': created here, never a file or link someone planted under that name.
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(text);
        if (sync) await handle.sync();
      } finally {
        await handle.close();
      }
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw failure(error);
    }
    let done = false;
    return {
      /** Renames the temporary file over the target: the one step left, which needs no space. */
      commit: async () => {
        if (done) return;
        done = true;
        try {
          await rename(temp, target);
        } catch (error) {
          await rm(temp, { force: true }).catch(() => {});
          throw failure(error);
        }
      },
      /** Removes the temporary file. Never throws. */
      discard: async () => {
        if (done) return;
        done = true;
        await rm(temp, { force: true }).catch(() => {});
      },
    };
  };
  let reserved = reserve > 0 ? join(lock.lockPath, 'reserve') : undefined;
  if (reserved) {
    try {
      await writeFile(reserved, Buffer.alloc(reserve));
    } catch (error) {
      lock.release();
      throw failure(error);
    }
  }
  return {
    /** The name the user gave (for messages). */
    name,
    /** The file it names, every link followed: what is read, written and locked. */
    target,
    prepare,
    /** prepare() and commit(); on a full disk, the reserve is freed, the text written, the failure thrown. */
    write: async (text: string) => {
      try {
        await (await prepare(text)).commit();
      } catch (error) {
        const code = errorCode((error as { cause?: unknown }).cause);
        if (!reserved || (code !== 'ENOSPC' && code !== 'EDQUOT')) throw error;
        await rm(reserved, { force: true });
        reserved = undefined;
        await (await prepare(text)).commit();
        throw new LeadError(
          `${reasonOf((error as { cause?: unknown }).cause)}: the ${what} ${name} was saved in the space set aside for it; the run stops here`,
          { exitCode: ExitCode.internal, cause: error },
        );
      }
    },
    /** Frees the file for the next run. Never throws. */
    release: lock.release,
  };
}

/** "pid 1234, started 2026-11-25 03:41:07 UTC" (or what is known of it). */
function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another process (its lock names no owner yet)';
  const when = holder.startedAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return `pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, started ${when}`;
}
