// Where `leadctl sync` keeps the database when --db is not given: `$XDG_DATA_HOME/leadctl/leads.db`,
// else `~/.local/share/leadctl/leads.db` (the XDG spec's place for a user's data files). A relative
// XDG_DATA_HOME is invalid by the spec and ignored, as the other XDG variables are.
import os from 'node:os';
import path from 'node:path';
import type { FolderRole } from '../config/paths.js';

export const DATA_FOLDER: FolderRole = {
  label: 'data folder',
  variable: 'XDG_DATA_HOME',
  fallback: '~/.local/share',
};

export function defaultDatabase(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(base, 'leadctl', 'leads.db');
}
