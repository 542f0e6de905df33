// Which database a run uses (docs/sync.md, "Which database"). A relative XDG_DATA_HOME is invalid by the
// spec and ignored, as the other XDG variables are.
import path from 'node:path';
import { UsageError } from '../api/errors.js';
import { type FolderRole, xdgLeadctlDir } from '../config/paths.js';

export const DATA_FOLDER: FolderRole = {
  label: 'data folder',
  variable: 'XDG_DATA_HOME',
  fallback: '~/.local/share',
};

export function defaultDatabase(env: NodeJS.ProcessEnv): string {
  return path.join(xdgLeadctlDir(env, DATA_FOLDER), 'leads.db');
}

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string; isDefault: boolean }
  | { kind: 'postgres'; url: string };

export const isPostgresUrl = (text: string) => /^postgres(ql)?:\/\//i.test(text);

/** `db`: --db as given; `dbUrl`: the profile's db-url (where a password may be stored, masked). */
export function databaseTarget(
  db: string | undefined,
  dbUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): DatabaseTarget {
  if (db !== undefined && isPostgresUrl(db)) {
    // A flag shows in the process list and the shell's history: no password there.
    if (/^[^:]+:\/\/[^:@/]*:[^@/]*@/.test(db)) {
      throw new UsageError(
        '--db must not hold a password: the process list and shell history would show it',
        'give it through PGPASSWORD or ~/.pgpass, or store the whole URL: leadctl config set db-url',
      );
    }
    return { kind: 'postgres', url: db };
  }
  if (db !== undefined) return { kind: 'sqlite', file: db, isDefault: false };
  if (dbUrl !== undefined) return { kind: 'postgres', url: dbUrl };
  return { kind: 'sqlite', file: defaultDatabase(env), isDefault: true };
}
