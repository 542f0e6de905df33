// What -o names, by shell conventions: `-` is stdout; a FIFO, a device or /dev/fd/N is written
// directly (there is nothing to rename onto it); a symlink is followed to the file it names, so the
// finished file replaces the target and the link stays; anything else is a regular file, written
// beside itself under a partial name and renamed over it on success (partial-file.ts).
import type { Stats } from 'node:fs';
import { lstat, readlink, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../api/errors.js';
import { errorCode, reasonOf } from './write-errors.js';

export type OutputPath =
  | { kind: 'stdout' }
  /** Opened and written as it is: a FIFO, a character or block device, an inherited descriptor. */
  | { kind: 'direct'; path: string }
  /** A regular file (or none yet) at `target`, the path after following every symlink. */
  | { kind: 'file'; target: string; existing: Stats | undefined };

/** Links longer than this are a loop (Linux gives up at 40 too). */
const MAX_LINKS = 40;

/** /dev/stdout, /dev/fd/3, /proc/self/fd/3: a descriptor the shell opened (`-o >(gzip > x.gz)`). */
const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

export async function resolveOutputPath(file: string): Promise<OutputPath> {
  if (file === '-') return { kind: 'stdout' };
  // Their links point into /proc ("pipe:[1234]"): never follow them by hand, let open() do it.
  if (DESCRIPTOR_PATH.test(file)) return { kind: 'direct', path: file };
  const target = await followLinks(file);
  let existing: Stats | undefined;
  try {
    existing = await stat(target);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
  }
  if (existing?.isDirectory()) throw new UsageError(`cannot write ${file}: is a directory`);
  if (existing?.isSocket()) throw new UsageError(`cannot write ${file}: is a socket`);
  if (existing && (existing.isFIFO() || existing.isCharacterDevice() || existing.isBlockDevice())) {
    return { kind: 'direct', path: target };
  }
  return { kind: 'file', target, existing };
}

/** The path a chain of symlinks ends at, existing or not (a dangling link names the file to create). */
async function followLinks(file: string): Promise<string> {
  let path = resolve(file);
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(path)).isSymbolicLink();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return path;
      throw new UsageError(`cannot write ${file}: ${reasonOf(error)}`);
    }
    if (!isLink) return path;
    path = resolve(dirname(path), await readlink(path));
  }
  throw new UsageError(`cannot write ${file}: too many levels of symbolic links`);
}
