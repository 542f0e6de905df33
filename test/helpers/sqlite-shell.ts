// The sqlite3 command-line shell, as a user reads a leadctl database back. Tests that need it skip,
// saying why, where it is not installed (.ci/run installs it).
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';

export const HAS_SQLITE3_SHELL = spawnSync('sqlite3', ['-version'], { stdio: 'ignore' }).status === 0;

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** node:sqlite without a flag: Node 22.13+ (the CLI under test runs on this same `node`). */
export const HAS_NODE_SQLITE = major > 22 || (major === 22 && minor >= 13);

export const ENGINE_SKIP_REASON = `needs node:sqlite (Node 22.13+; this is Node ${process.versions.node}): CI's Node 22 and 24 runs execute it`;
export const SHELL_SKIP_REASON = 'needs the sqlite3 shell (apt-get install sqlite3; .ci/run installs it)';

/** Rows of a query as `sqlite3 -json` prints them. */
export async function sqliteRows(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const { stdout } = await execa('sqlite3', ['-json', db, sql]);
  return stdout.trim() === '' ? [] : (JSON.parse(stdout) as Record<string, unknown>[]);
}

/** One number from a query such as `select count(*) from leads`. */
export async function sqliteNumber(db: string, sql: string): Promise<number> {
  const { stdout } = await execa('sqlite3', [db, sql]);
  return Number(stdout.trim());
}
