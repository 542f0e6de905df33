// What an agent driving leadctl reads (issue 33.3): with --json every command's stdout parses (or is
// empty after a failure) and a failure ends stderr with one JSON object carrying the exit code, a
// stable code, the message and the hint, after the lines a person reads. And what a person at an
// 80-column terminal reads (31.5): every line of an error fits. In-process, against a real server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { CommandSpec } from '../../src/commands/help/spec.js';
import { cleanEnv, runCli, tempConfigHome } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());

/** stderr's last line as the JSON error object, or a failure saying what the line was. */
function lastJsonError(stderr: string): { exit: number; code: string; message: string; hint?: string } {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  const parsed = JSON.parse(last) as {
    error: { exit: number; code: string; message: string; hint?: string };
  };
  expect(Object.keys(parsed)).toEqual(['error']);
  return parsed.error;
}

const { commands } = JSON.parse((await runCli(['help', '--json'])).stdout) as {
  commands: CommandSpec[];
};

describe('every command with --json', () => {
  it.each(commands.map((command) => [command.name]))('%s --json', async (name) => {
    // No base URL and no key: nothing here can reach a network.
    const { exitCode, stdout, stderr } = await runCli([...name.split(' '), '--json']);
    if (stdout !== '') expect(() => JSON.parse(stdout)).not.toThrow();
    if (exitCode === 0) return;
    const error = lastJsonError(stderr);
    expect(error.exit).toBe(exitCode);
    expect(error.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(stderr.startsWith(`leadctl: ${error.message}\n`)).toBe(true);
  });
});

describe('an agent reads the failure off stderr', () => {
  it('leads --json without a key: exit 3, no_api_key, after the lines a person reads', async () => {
    const { exitCode, stdout, stderr } = await runCli(['leads', '--json', '--base-url', server.baseUrl]);
    expect({ exitCode, stdout }).toEqual({ exitCode: 3, stdout: '' });
    const error = {
      exit: 3,
      code: 'no_api_key',
      message: 'no API key is configured',
      hint: 'run: leadctl config set api-key (or export LEADCTL_API_KEY)',
    };
    expect(stderr).toBe(`leadctl: ${error.message}\n${error.hint}\n${JSON.stringify({ error })}\n`);
  });

  it('with --verbose the stack comes before the JSON line, which stays last', async () => {
    const { exitCode, stderr } = await runCli(['leads', '--json', '--verbose', '--base-url', server.baseUrl]);
    expect(exitCode).toBe(3);
    expect(stderr).toMatch(/\n {4}at /);
    expect(lastJsonError(stderr).code).toBe('no_api_key');
    const refused = await runCli(['leads', '--limt', '5', '--verbose']);
    expect(refused.stderr).not.toMatch(/\n {4}at /);
  });

  it.each([[['-f', 'ndjson']], [['--format=json']]])(
    '%j asks for it too; a table run does not',
    async (format) => {
      server.route('GET', '/api/v1/history', json(403, { detail: 'Account deactivated' }));
      const args = ['history', '--base-url', server.baseUrl, '--api-key', 'k-12345678'];
      const asked = await runCli([...args, ...format]);
      expect(lastJsonError(asked.stderr)).toEqual({
        exit: 4,
        code: 'forbidden',
        message: 'access denied (403): Account deactivated',
        hint: "the account may be deactivated, or its plan may not include API access: check the account's plan and API settings",
        status: 403,
      });
      const plain = await runCli([...args, '-f', 'csv']);
      expect(plain.stderr).not.toContain('{"error"');
      expect(plain.exitCode).toBe(4);
    },
  );

  it('an export that fails part way names its partial file in the JSON too', async () => {
    const lead = (id: number) => ({ id, name: `Lead ${id}` });
    const page = { leads: [lead(2), lead(1)], meta: { page: 1, limit: 2, total: 4, totalPages: 2 } };
    server.route('GET', '/api/v1/leads', json(200, page), json(403, { detail: 'Account deactivated' }));
    const out = join(tempDir('agent'), 'leads.ndjson');
    const args = ['leads', '--all', '--limit', '2', '--concurrency', '1', '-o', out, '--json'];
    const { exitCode, stderr } = await runCli([
      ...args,
      '--base-url',
      server.baseUrl,
      '--api-key',
      'k-12345678',
    ]);
    expect(exitCode).toBe(4);
    const error = lastJsonError(stderr) as { partialFile?: string };
    expect(error.partialFile).toMatch(/leads\.ndjson\.[^/]+\.partial$/);
    expect(stderr).toContain(`\nthe output received so far is in ${error.partialFile}\n`);
    expect(readFileSync(error.partialFile as string, 'utf8')).toContain('"Lead 2"');
  });

  it('a 401 names where the key came from, in text and JSON alike', async () => {
    server.route('GET', '/api/v1/leads', json(401, { error: 'bad key' }));
    const { stderr } = await runCli(['leads', '--json', '--base-url', server.baseUrl], {
      env: { LEADCTL_API_KEY: 'k-12345678' },
    });
    const error = lastJsonError(stderr);
    expect(error).toMatchObject({ exit: 3, code: 'unauthorized' });
    expect(error.hint).toBe(
      'the key came from LEADCTL_API_KEY, which wins over the stored key: correct it, or unset LEADCTL_API_KEY',
    );
    expect(stderr.split('\n')[1]).toBe(error.hint);
  });
});

/** main() with stderr as a terminal of `columns` columns, as a person at it sees the lines. */
async function onTerminal(args: string[], columns: number): Promise<{ exitCode: number; stderr: string }> {
  let stderr = '';
  const sink = () =>
    Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          stderr += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns },
    );
  const io = {
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
    stderr: sink(),
    stdin: process.stdin,
    env: cleanEnv({ XDG_CONFIG_HOME: await tempConfigHome(), NO_COLOR: '1' }),
  };
  const exitCode = await main(args, io);
  return { exitCode, stderr };
}

describe('an error at an 80-column terminal', () => {
  it('a 429 with a long server message fits, wrapped at words, nothing lost', async () => {
    const reset = Math.floor(Date.now() / 1000) + 5 * 3600;
    const message =
      'Daily request limit of 10000 reached for this plan; upgrade at https://example.com/billing';
    server.route('GET', '/api/v1/leads', json(429, { error: message, retryAfter: reset }));
    const args = ['leads', '--base-url', server.baseUrl, '--api-key', 'k-12345678', '--no-pager'];
    const { exitCode, stderr } = await onTerminal(args, 80);
    expect(exitCode).toBe(5);
    const lines = stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^leadctl: rate limit reached \(Daily request/);
    expect(lines[1]).toMatch(/^ {2}\S/);
    const wide = await onTerminal(args, 400);
    expect(wide.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(lines.map((line) => line.trim()).join(' ')).toBe(wide.stderr.trimEnd().split('\n').join(' '));
  });

  it('a refused command line fits too', async () => {
    const { exitCode, stderr } = await onTerminal(['leads', '--limit', '500'], 80);
    expect(exitCode).toBe(2);
    for (const line of stderr.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
