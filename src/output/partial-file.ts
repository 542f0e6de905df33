// The partial file an -o export is written to before it is renamed over the target. Created with
// O_EXCL|O_NOFOLLOW under a random name beside the target: a link planted at a guessable name is
// never followed, and two runs writing the same -o never share a file (the last rename wins, each
// file whole). When the target exists, the partial takes its mode, and its owner where allowed, so
// that the rename does not make a private file world-readable.
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errorCode } from './write-errors.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = constants;
const SUFFIX = '.partial';

export interface PartialFile {
  handle: FileHandle;
  path: string;
}

/** `leads.csv` -> `leads.csv.3fa9c21b.partial`. node:crypto loads only for -o (a one-page run to stdout never needs it). */
export async function partialName(target: string): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return `${target}.${randomBytes(4).toString('hex')}${SUFFIX}`;
}

/** True for a name partialName(target) could have made: how --resume checks a state file's claim. */
export function isPartialNameFor(target: string, name: string): boolean {
  return (
    name.startsWith(`${target}.`) &&
    name.endsWith(SUFFIX) &&
    /^[0-9a-f]{8}$/.test(name.slice(target.length + 1, -SUFFIX.length))
  );
}

export async function createPartialFile(target: string, existing: Stats | undefined): Promise<PartialFile> {
  for (let attempt = 0; ; attempt++) {
    const path = await partialName(target);
    let handle: FileHandle;
    try {
      // A new file: 0644 before the umask (lead data is never group- or world-writable). Replacing
      // one: private until its own mode is copied below.
      handle = await open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, existing ? 0o600 : 0o644);
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && attempt < 4) continue;
      throw error;
    }
    if (existing) await copyOwnership(handle, existing);
    return { handle, path };
  }
}

async function copyOwnership(handle: FileHandle, existing: Stats): Promise<void> {
  // Only root may give a file away; anyone may keep a group they belong to. Neither is worth failing for.
  await handle.chown(existing.uid, existing.gid).catch(() => {});
  await handle.chmod(existing.mode & 0o777);
}
