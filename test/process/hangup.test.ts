// SIGHUP (a closed terminal, a dropped SSH session) and SIGTERM stop a run as Ctrl-C does: the rows
// received kept in the partial file stderr names, every lock released, the checkpoint, batch state and
// database as a rerun needs them, and the exit code shells report for the signal (129, 143; 130 for
// SIGINT). Each case sends the signal to a real leadctl while a request is at the server, whose answer
// is held until leadctl has exited; or while it asks a question on the terminal.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { spawn as spawnPty } from '@lydell/node-pty';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runCli, spawnCli } from '../helpers/cli.js';
import { callTool, startMcp } from '../helpers/mcp-session.js';
import { ENGINE_SKIP_REASON, HAS_NODE_SQLITE } from '../helpers/sqlite-shell.js';
import { tempDir } from '../helpers/temp.js';

const EXIT = { SIGHUP: 129, SIGTERM: 143, SIGINT: 130 } as const;

async function sandboxWith(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const sandbox = await startSandbox(options);
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** A folder for the run's files and a state and config home of its own, so every lock it takes is in view. */
function workspace() {
  const dir = tempDir('hangup');
  return { dir, env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') } };
}

/** Every `*.lock` left anywhere under `dir`. */
function locksUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => /\.lock$/.test(name));
}

const auth = (sandbox: SandboxHandle) => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];

/** Starts leadctl and sends it `signal` when the `nth` request since now is at the server. */
function signalAt(
  sandbox: SandboxHandle,
  nth: number,
  signal: NodeJS.Signals,
  args: string[],
  env: Record<string, string>,
) {
  const sent = sandbox.requests.length;
  const child = spawnCli(args, { env, stdin: 'ignore' });
  sandbox.onRequest(async () => {
    if (sandbox.requests.length !== sent + nth) return;
    child.kill(signal);
    await child;
  });
  return child;
}

describe('an export with -o', () => {
  it.each(['SIGHUP', 'SIGTERM'] as const)(
    '%s: the rows received are in the partial file stderr names; exit 128 + the signal',
    async (signal) => {
      const { dir, env } = workspace();
      const sandbox = await sandboxWith({ leads: 1_000 });
      const file = join(dir, 'leads.csv');
      const args = ['leads', '--all', '--csv', '--concurrency', '1', '-o', file, ...auth(sandbox)];
      const result = await signalAt(sandbox, 3, signal, args, env);

      expect(result.exitCode).toBe(EXIT[signal]);
      const stderr = String(result.stderr);
      expect(stderr).toMatch(new RegExp(`^leadctl: stopped by ${signal}$`, 'm'));
      const partial = /^the output received so far is in (.+)$/m.exec(stderr)?.[1] as string;
      expect(partial).toMatch(/leads\.csv\.[0-9a-f]{8}\.partial$/);
      const rows = readFileSync(partial, 'utf8').trimEnd().split('\r\n');
      expect(rows.length - 1).toBeGreaterThanOrEqual(100);
      expect((rows.length - 1) % 100).toBe(0);
      expect(existsSync(file)).toBe(false);
      expect(locksUnder(dir)).toEqual([]);
    },
  );

  it('the terminal closed under it (SIGHUP, then EIO on every write): it still cleans up and exits 129', async () => {
    const { dir, env } = workspace();
    const sandbox = await sandboxWith({ leads: 1_000 });
    const file = join(dir, 'leads.csv');
    const args = ['leads', '--all', '--csv', '--concurrency', '1', '-o', file, ...auth(sandbox)];
    expect(await hangUpAt(sandbox, 3, args, env)).toEqual({ exitCode: 129, signal: 0 });
    const partials = readdirSync(dir).filter((name) => name.endsWith('.partial'));
    expect(partials).toHaveLength(1);
    const rows = readFileSync(join(dir, partials[0] as string), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect((rows.length - 1) % 100).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(locksUnder(dir)).toEqual([]);
  });

  it('the terminal closed while its pager (less) shows the output: exit 129, not a closed pipe', async () => {
    const { env } = workspace();
    const sandbox = await sandboxWith({ leads: 1_000 });
    const args = ['leads', '--all', '--concurrency', '1', ...auth(sandbox)];
    expect(await hangUpAt(sandbox, 3, args, { ...env, PAGER: 'less' })).toEqual({ exitCode: 129, signal: 0 });
  });
});

/**
 * Runs leadctl as the leader of its own session on a terminal, as a login shell's job is, and closes
 * the terminal (node-pty's destroy(): its master side, as a terminal window or an SSH connection goes)
 * when the `nth` request since now is at the server: the kernel hangs the terminal up and sends SIGHUP.
 */
async function hangUpAt(sandbox: SandboxHandle, nth: number, args: string[], env: Record<string, string>) {
  const { hangUp, exited } = onTerminal(args, env);
  const sent = sandbox.requests.length;
  sandbox.onRequest(async () => {
    if (sandbox.requests.length !== sent + nth) return;
    hangUp();
    await exited;
  });
  return exited;
}

/** leadctl on a terminal of its own: what it wrote there, how it ended, and the hang-up. */
function onTerminal(args: string[], env: Record<string, string>) {
  const terminal = spawnPty(process.execPath, [BIN, ...args], {
    name: 'xterm-256color',
    cols: 80,
    rows: 24,
    env: Object.fromEntries(
      Object.entries(cleanEnv({ TERM: 'xterm-256color', ...env })).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    ),
  });
  onTestFinished(() => terminal.kill('SIGKILL'));
  let output = '';
  terminal.onData((text) => {
    output += text;
  });
  const exited = new Promise<{ exitCode: number; signal: number }>((resolve) =>
    terminal.onExit(({ exitCode, signal }) => resolve({ exitCode, signal: signal ?? 0 })),
  );
  const hangUp = () => (terminal as typeof terminal & { destroy(): void }).destroy();
  return { output: () => output, exited, hangUp, type: (keys: string) => terminal.write(keys) };
}

describe('a question on the terminal: config remove-profile', () => {
  const profiles = { old: { 'base-url': 'https://api.example.com' } };
  /** `config remove-profile old` on a terminal, once it asks; and what the config holds after. */
  async function asked() {
    const { dir, env } = workspace();
    const config = join(dir, 'config', 'leadctl', 'config.json');
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, JSON.stringify({ profiles }), { mode: 0o600 });
    const run = onTerminal(['config', 'remove-profile', 'old'], env);
    await expect.poll(run.output, { timeout: 60_000 }).toContain('[y/N]');
    return { ...run, dir, profiles: () => JSON.parse(readFileSync(config, 'utf8')).profiles };
  }

  it.each([
    ['y and Enter', 'y\r', 'Removed profile "old"', {}],
    ['Enter', '\r', 'Nothing removed', profiles],
    ['Ctrl-D', '\x04', '[y/N] \r\nNothing removed', profiles],
  ])('%s: exit 0, and the answer is what happens', async (_keys, keys, said, left) => {
    const run = await asked();
    run.type(keys);
    expect(await run.exited).toEqual({ exitCode: 0, signal: 0 });
    expect(run.output()).toContain(said);
    expect(run.profiles()).toEqual(left);
  });

  it('the terminal closed while it asks: exit 129, the profile kept, no lock left', async () => {
    const run = await asked();
    run.hangUp();
    expect(await run.exited).toEqual({ exitCode: 129, signal: 0 });
    expect(run.profiles()).toEqual(profiles);
    expect(locksUnder(run.dir)).toEqual([]);
  });
});

describe('a question on the terminal: the key auth login asks without echo', () => {
  it('the terminal closed while it asks: exit 129, nothing stored', async () => {
    const { dir, env } = workspace();
    const run = onTerminal(['auth', 'login', '--base-url', 'https://api.example.com'], env);
    await expect.poll(run.output, { timeout: 60_000 }).toContain('API key: ');
    run.hangUp();
    expect(await run.exited).toEqual({ exitCode: 129, signal: 0 });
    expect(existsSync(join(dir, 'config', 'leadctl', 'config.json'))).toBe(false);
    expect(locksUnder(dir)).toEqual([]);
  });
});

describe('a checkpoint run', () => {
  it('SIGHUP: exit 129, the file and the checkpoint as they were, its lock gone; the rerun completes it', async () => {
    const { dir, env } = workspace();
    const sandbox = await sandboxWith({ leads: 120, seed: 3 });
    const ckpt = join(dir, 'leads.ckpt');
    const out = join(dir, 'leads.csv');
    const args = ['leads', '--checkpoint', ckpt, '--csv', '-o', out, '--append', ...auth(sandbox)];
    expect((await runCli(args, { env })).exitCode).toBe(0);
    const checkpointBefore = await readFile(ckpt, 'utf8');
    const fileBefore = await readFile(out, 'utf8');

    sandbox.addLeads(250);
    const stopped = await signalAt(sandbox, 2, 'SIGHUP', args, env);
    sandbox.onRequest(undefined);
    expect(stopped.exitCode).toBe(129);
    expect(String(stopped.stderr)).toContain('leadctl: stopped by SIGHUP');
    expect(await readFile(ckpt, 'utf8')).toBe(checkpointBefore);
    expect(await readFile(out, 'utf8')).toBe(fileBefore);
    expect(locksUnder(dir)).toEqual([]);

    const rerun = await runCli(args, { env });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stderr).toContain('Wrote 250 new leads');
  });
});

describe('a batch that is sending', () => {
  it('SIGHUP: exit 129, the partial file named, the state kept and unlocked; --resume finishes it', async () => {
    const { dir, env } = workspace();
    const sandbox = await sandboxWith({ seed: 5 });
    const input = join(dir, 'searches.csv');
    await writeFile(input, 'query,location\nplumber,Dallas\nroofer,Austin\ndentist,Waco\nbaker,Tulsa\n');
    const out = join(dir, 'results.csv');
    const args = ['search', '--input', input, '-o', out, '--csv', '--concurrency', '1', ...auth(sandbox)];
    const stopped = await signalAt(sandbox, 3, 'SIGHUP', args, env);
    sandbox.onRequest(undefined);

    expect(stopped.exitCode).toBe(129);
    const stderr = String(stopped.stderr);
    expect(stderr).toContain('leadctl: stopped by SIGHUP');
    expect(stderr).toMatch(/^the output received so far is in .*results\.csv\.[0-9a-f]{8}\.partial$/m);
    expect(existsSync(`${out}.state`)).toBe(true);
    expect(locksUnder(dir)).toEqual([]);

    const resumed = await runCli([...args, '--resume', '--resend-unknown'], { env });
    expect(resumed.exitCode).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(locksUnder(dir)).toEqual([]);
  });
});

describe.skipIf(!HAS_NODE_SQLITE)(`sync${HAS_NODE_SQLITE ? '' : ` (skipped: ${ENGINE_SKIP_REASON})`}`, () => {
  it('SIGHUP mid-sync: exit 129, the database unlocked; the rerun completes it', async () => {
    const { dir, env } = workspace();
    const sandbox = await sandboxWith({ leads: 400, history: 5 });
    const db = join(dir, 'leads.db');
    const args = ['sync', '--db', db, ...auth(sandbox)];
    const stopped = await signalAt(sandbox, 2, 'SIGHUP', args, env);
    sandbox.onRequest(undefined);
    expect(stopped.exitCode).toBe(129);
    expect(String(stopped.stderr)).toContain('leadctl: stopped by SIGHUP');
    expect(locksUnder(dir)).toEqual([]);

    const rerun = await runCli(args, { env });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stderr).toMatch(/leads \d+ new/);
  });
});

describe('one search', () => {
  it('Ctrl-C while the search is at the server: exit 130, saying it may have spent a live search', async () => {
    const { env } = workspace();
    const sandbox = await sandboxWith();
    const args = ['search', 'plumber', '-l', 'Austin', '--json', ...auth(sandbox)];
    const stopped = await signalAt(sandbox, 1, 'SIGINT', args, env);
    expect(stopped.exitCode).toBe(130);
    expect(String(stopped.stderr)).toBe(
      'leadctl: warning: the search was sent: it may have spent a live search\nleadctl: interrupted\n' +
        '{"error":{"exit":130,"code":"interrupted","message":"interrupted"}}\n',
    );
    expect(String(stopped.stdout)).toBe('');
  });
});

describe('leadctl mcp', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s while a call is at the server: the call stops, no lock is left, and the exit code is the signal',
    async (signal) => {
      const sandbox = await sandboxWith({ leads: 30 });
      const { dir, env } = workspace();
      const mcp = await startMcp([], {
        ...env,
        LEADCTL_BASE_URL: sandbox.url,
        LEADCTL_API_KEY: sandbox.apiKey,
      });
      let ended: ReturnType<typeof mcp.kill> | undefined;
      sandbox.onRequest(async () => {
        ended ??= mcp.kill(signal);
        await ended;
      });
      void callTool(mcp, 'list_leads', {}).catch(() => {});
      await expect.poll(() => ended, { timeout: 60_000 }).toBeDefined();
      const { exitCode, stderr } = await (ended as ReturnType<typeof mcp.kill>);
      expect(exitCode).toBe(EXIT[signal]);
      expect(stderr).toMatch(new RegExp(`^leadctl: stopped by ${signal}$`, 'm'));
      expect(locksUnder(dir)).toEqual([]);
    },
  );
});
