// One sync at a time per account of a SQLite database: a lock file beside it, created exclusively,
// that names its holder (process id, host, command, start time) so that a second run can say who
// holds it. It is held for the whole run (a sync lasts minutes, so it cannot be a short lock that goes
// stale by age); a lock whose process is gone (same host, no such pid: killed, power cut) is taken over.
// PostgreSQL needs no file: an advisory lock dies with its connection (postgres.ts).
import fs from 'node:fs';
import os from 'node:os';
import { UsageError } from '../api/errors.js';
import { reasonOf } from '../output/destination.js';

interface Holder {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
}

export interface WriterLock {
  release(): void;
}

/** `shown`: what is locked, for messages ("leads.db (account client-a)"). */
export function takeWriterLock(lockPath: string, command: string, shown: string): WriterLock {
  const me: Holder = { pid: process.pid, host: os.hostname(), command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o600 });
      return { release: () => fs.rmSync(lockPath, { force: true }) };
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') {
        const why =
          (error as { code?: unknown }).code === 'ENOENT' ? 'its folder does not exist' : reasonOf(error);
        throw new UsageError(`cannot lock ${shown}: ${why}`);
      }
    }
    const holder = readHolder(lockPath);
    if (holder && isAlive(holder)) throw lockedError(shown, lockPath, holder);
    // Left by a process that no longer runs (or unreadable half-written junk): take it over once.
    if (!holder && attempt === 0 && ageMs(lockPath) < 2_000) throw lockedError(shown, lockPath);
    fs.rmSync(lockPath, { force: true });
  }
  throw lockedError(shown, lockPath);
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<Holder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return undefined;
    return {
      pid: value.pid,
      host: value.host,
      command: String(value.command ?? 'leadctl'),
      startedAt: String(value.startedAt ?? '?'),
    };
  } catch {
    return undefined;
  }
}

/** On another host a process cannot be checked: it counts as running. */
function isAlive(holder: Holder): boolean {
  if (holder.host !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function ageMs(lockPath: string): number {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function lockedError(database: string, lockPath: string, holder?: Holder): UsageError {
  const who = holder
    ? `${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt})`
    : 'another process';
  return new UsageError(
    `${database} is being synced by ${who}; one writer per account`,
    `wait for it to finish; if that process is gone, delete ${lockPath}`,
  );
}
