// Creating one of leadctl's folders (the config's; any other under an XDG variable may use it too),
// private (0700), one level at a time. Node's recursive mkdirSync loops
// forever where mkdir fails with ENOENT under a parent that exists (anything under /proc), spinning at
// full CPU and deaf to Ctrl-C: here each missing level is tried once, and a refusal is an error (exit
// 2) that names the folder.
import fs from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../api/errors.js';
import { describeFsError, errorCode } from './store.js';

export interface FolderRole {
  /** How messages name it: "config folder". */
  label: string;
  /** The variable that placed it, for the hint. */
  variable: string;
  /** Where it goes when the variable is unset, for the hint. */
  fallback: string;
}

const CONFIG_FOLDER: FolderRole = {
  label: 'config folder',
  variable: 'XDG_CONFIG_HOME',
  fallback: '~/.config',
};

export function makePrivateDir(dir: string, role: FolderRole = CONFIG_FOLDER): void {
  const cannotCreate = (why: unknown) => cannotCreateError(dir, role, why);
  const missing: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    let info: fs.Stats | undefined;
    try {
      info = fs.statSync(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw cannotCreate(error);
    }
    if (info) {
      if (!info.isDirectory()) throw cannotCreate(`${current} is not a folder`);
      break;
    }
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing) {
    try {
      fs.mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && fs.statSync(path).isDirectory()) continue;
      throw cannotCreate(error);
    }
  }
  // mkdir's mode is filtered by the umask; set it on the folder leadctl owns (not on parents).
  if (missing.includes(dir) && process.platform !== 'win32') fs.chmodSync(dir, 0o700);
}

function cannotCreateError(dir: string, role: FolderRole, why: unknown): UsageError {
  const reason =
    typeof why === 'string'
      ? why
      : errorCode(why) === 'ENOENT'
        ? 'the file system refused to create it (ENOENT)'
        : describeFsError(why);
  return new UsageError(
    `cannot create ${role.label} ${dir}: ${reason}`,
    `set ${role.variable} to a folder you can write, or unset it to use ${role.fallback}`,
  );
}
