// Where leadctl keeps its config, and how it creates its folders. The documented XDG paths hold on
// every OS (macOS included): not conf's env-paths default (~/Library/Preferences/...).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { describeFsError, errorCode } from './store.js';

/** `$<variable>/leadctl`, else `<fallback>/leadctl` (XDG: a relative value is ignored); HOME from `env`. */
export function xdgLeadctlDir(env: NodeJS.ProcessEnv, role: FolderRole): string {
  const xdg = env[role.variable];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'leadctl');
  return path.join(env.HOME || os.homedir(), role.fallback.replace(/^~\//, ''), 'leadctl');
}

/** `$XDG_CONFIG_HOME/leadctl`, else `~/.config/leadctl`. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return xdgLeadctlDir(env, CONFIG_FOLDER);
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(configDir(env), 'config.json');
}

// Creating one of leadctl's folders, private (0700), one level at a time: Node's recursive mkdirSync
// loops forever where mkdir fails with ENOENT under a parent that exists (anything under /proc), deaf to
// Ctrl-C. Here each missing level is tried once, and a refusal is an error (exit 2) naming the folder.

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
  for (let current = dir; ; current = path.dirname(current)) {
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
    if (path.dirname(current) === current) break;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) === 'EEXIST' && fs.statSync(folder).isDirectory()) continue;
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
