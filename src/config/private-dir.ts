// Creating the config folder, private (0700), one level at a time. Node's recursive mkdirSync loops
// forever where mkdir fails with ENOENT under a parent that exists (anything under /proc), spinning at
// full CPU and deaf to Ctrl-C: here each missing level is tried once, and a refusal is an error (exit
// 2) that names the folder.
import fs from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../api/errors.js';
import { describeFsError, errorCode } from './store.js';

export function makePrivateDir(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    let info: fs.Stats | undefined;
    try {
      info = fs.statSync(current);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw cannotCreate(dir, error);
    }
    if (info) {
      if (!info.isDirectory()) throw cannotCreate(dir, `${current} is not a folder`);
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
      throw cannotCreate(dir, error);
    }
  }
  // mkdir's mode is filtered by the umask; set it on the folder leadctl owns (not on parents).
  if (missing.includes(dir) && process.platform !== 'win32') fs.chmodSync(dir, 0o700);
}

function cannotCreate(dir: string, why: unknown): UsageError {
  const reason =
    typeof why === 'string'
      ? why
      : errorCode(why) === 'ENOENT'
        ? 'the file system refused to create it (ENOENT)'
        : describeFsError(why);
  return new UsageError(
    `cannot create config folder ${dir}: ${reason}`,
    'set XDG_CONFIG_HOME to a folder you can write, or unset it to use ~/.config',
  );
}
