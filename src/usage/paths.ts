// Where the usage ledger lives: `$XDG_STATE_HOME/leadctl/usage.json`, else
// `~/.local/state/leadctl/usage.json` (the XDG spec's place for state that outlives a run but is not
// configuration). A relative XDG_STATE_HOME is invalid by the spec and ignored, as XDG_CONFIG_HOME is.
import os from 'node:os';
import path from 'node:path';
import type { FolderRole } from '../config/private-dir.js';

export const STATE_FOLDER: FolderRole = {
  label: 'state folder',
  variable: 'XDG_STATE_HOME',
  fallback: '~/.local/state',
};

export function stateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'leadctl');
  return path.join(env.HOME || os.homedir(), '.local', 'state', 'leadctl');
}

export function ledgerFile(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), 'usage.json');
}
