// Runs the BUILT leadctl (bin/leadctl.cjs -> dist/) as a user would: a real process, a clean
// environment, a private config folder.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa, type Options, type ResultPromise } from 'execa';
import { tempDir } from './temp.js';

export const BIN = resolve(import.meta.dirname, '../../bin/leadctl.cjs');

if (!existsSync(resolve(import.meta.dirname, '../../dist/cli.js'))) {
  throw new Error('dist/ is missing: run `npm run build` before the e2e tests (npm test does)');
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty config home, so no test sees another's profiles or the user's own (removed after). */
export async function tempConfigHome(): Promise<string> {
  return tempDir('home');
}

/** leadctl keeps no cache; should it ever write one, it goes here and not into the user's own. */
const CACHE_HOME = tempDir('cache');

/** The usage ledger of every run goes here, never into the user's ~/.local/state. */
const STATE_HOME = tempDir('state');

/** A config home with nothing in it, for runs whose test gives none: never the user's own profiles. */
const CONFIG_HOME = tempDir('config');

/**
 * Only what a process needs: no LEADCTL_*, NO_COLOR, FORCE_COLOR, TERM, COLUMNS or proxy leaking in
 * from the developer's shell, and no config but the test's own.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: CONFIG_HOME,
    XDG_CACHE_HOME: CACHE_HOME,
    XDG_STATE_HOME: STATE_HOME,
    ...extra,
  };
}

export function spawnCli(
  args: string[],
  options: Options & { env?: Record<string, string | undefined> } = {},
): ResultPromise {
  return execa('node', [BIN, ...args], {
    reject: false,
    extendEnv: false,
    stripFinalNewline: false,
    ...options,
    env: cleanEnv(options.env),
  });
}

export async function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Uint8Array; cwd?: string } = {},
): Promise<CliResult> {
  const result = await spawnCli(args, {
    ...(options.input === undefined ? { stdin: 'ignore' } : { input: options.input }),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
