// The second line of an error names what the user can change for this run: the path for `api`, when a
// rate limit resets (not a --max-wait nobody would raise to a day), and -o names leadctl will not write,
// refused before any request.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
let home: string;

beforeAll(async () => {
  server = await startFakeServer();
  home = await tempConfigHome();
});
afterAll(() => server.close());

const run = (args: string[], cwd?: string) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k-123456'], {
    env: { XDG_CONFIG_HOME: home },
    ...(cwd ? { cwd } : {}),
  });

const nowSec = () => Math.floor(Date.now() / 1000);

describe('hints', () => {
  it('api <path> answered 404: the path is missing, not the base URL', async () => {
    const { exitCode, stderr } = await run(['api', 'nothing']);
    expect(exitCode).toBe(2);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('leadctl: not found (404): /api/v1/nothing: Not Found');
    expect(lines[1]).toMatch(/^the server has no such path/);
    expect(stderr).not.toContain('--base-url');
  });

  it('leads answered 404: the base URL is what to check', async () => {
    const { exitCode, stderr } = await run(['leads']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('\ncheck --base-url: leadctl appends /api/v1/... to it');
  });

  it('a 429 that resets in 21 hours says when, and does not offer --max-wait', async () => {
    server.route('GET', '/api/v1/history', json(429, { retryAfter: nowSec() + 21 * 3600 }));
    const { exitCode, stderr } = await run(['history', '--max-wait', '5']);
    expect(exitCode).toBe(5);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^leadctl: rate limit reached: the server allows more requests .*, in 2[01]h \d+m$/,
    );
    expect(lines[1]).toBe('try again then; leadctl usage shows what this machine has sent today');
  });

  it('a 429 that resets in 2 minutes offers the --max-wait in force', async () => {
    server.route('GET', '/api/v1/history', json(429, { retryAfter: nowSec() + 120 }));
    const { exitCode, stderr } = await run(['history', '--max-wait', '5']);
    expect(exitCode).toBe(5);
    expect(stderr.trimEnd().split('\n')[1]).toBe(
      'wait until then, or raise --max-wait (now 5 s) to let leadctl wait',
    );
  });
});

describe('-o names leadctl will not write', () => {
  it('-o json is a format where a file belongs: exit 2, no file, no request', async () => {
    const dir = tempDir();
    const before = server.requests.length;
    const { exitCode, stdout, stderr } = await run(['leads', '-o', 'json'], dir);
    expect({ exitCode, stdout }).toEqual({ exitCode: 2, stdout: '' });
    expect(stderr).toBe(
      'leadctl: -o takes a file name, and "json" is a format: did you mean `-f json`?\n' +
        'to write a file named json, say -o ./json\n',
    );
    expect(await readdir(dir)).toEqual([]);
    expect(server.requests.length).toBe(before);
  });

  it('-o leads.ods is refused rather than written as json under that name, with xlsx as the way', async () => {
    const dir = tempDir();
    const before = server.requests.length;
    for (const extra of [[], ['--csv']]) {
      const { exitCode, stderr } = await run(['leads', '-o', 'leads.ods', ...extra], dir);
      expect(exitCode).toBe(2);
      expect(stderr).toMatch(/^leadctl: cannot write leads\.ods: leadctl does not write \.ods files/);
      expect(stderr).toMatch(/for Excel: -o leads\.xlsx\n$/);
      expect(stderr.trimEnd().split('\n')).toHaveLength(2);
    }
    expect(existsSync(join(dir, 'leads.ods'))).toBe(false);
    expect(server.requests.length).toBe(before);
  });
});
