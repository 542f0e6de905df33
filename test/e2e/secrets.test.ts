// The key is a password: never printed, never sent in the clear off the machine, never carried to
// another origin. And the server's deprecation notices reach the user once.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';

const SECRET = 'sk_live_do_not_print_9z8y';
let sandbox: SandboxHandle;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 250 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

async function serve(handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void) {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => server.close(),
  };
}

describe('the key', () => {
  it('is not in --verbose output, which logs one line per attempt', async () => {
    const r = await runCli(['leads', '--verbose', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/leads\?\S* -> 200 in \d+ ms \(attempt 1\)/,
    );
    expect(r.stderr + r.stdout).not.toContain(sandbox.apiKey);
  });

  it('is not in an error, even with --verbose', async () => {
    const r = await runCli(['leads', '--verbose', '--base-url', sandbox.url, '--api-key', SECRET], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr + r.stdout).not.toContain(SECRET);
  });

  it('is not in config list or get unless --reveal', async () => {
    const env = { XDG_CONFIG_HOME: home };
    expect((await runCli(['config', 'set', 'api-key'], { env, input: `  ${SECRET}\n` })).exitCode).toBe(0);
    const list = await runCli(['config', 'list'], { env });
    expect(list.stdout).toContain('api-key=…9z8y');
    expect(list.stdout + list.stderr).not.toContain(SECRET);
    expect((await runCli(['config', 'get', 'api-key', '--reveal'], { env })).stdout).toBe(`${SECRET}\n`);
    await runCli(['config', 'unset', 'api-key'], { env });
  });

  it('is never sent over plain http to a host that is not loopback', async () => {
    const r = await runCli(['leads', '--base-url', 'http://0.0.0.0:9', '--api-key', SECRET], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/http/);
    expect(r.stderr).not.toContain(SECRET);
  });

  it('is not carried along a redirect to another origin', async () => {
    const elsewhere = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
    const redirecting = await serve((_req, res) =>
      res.writeHead(302, { location: `${elsewhere.url}/api/v1/leads` }).end(),
    );
    try {
      const r = await runCli(['leads', '--base-url', redirecting.url, '--api-key', SECRET], {
        env: { XDG_CONFIG_HOME: home },
      });
      expect(r.exitCode).toBe(7);
      expect(r.stderr).toContain('redirect');
      expect(redirecting.seen).toHaveLength(1);
      expect(elsewhere.seen).toHaveLength(0);
    } finally {
      redirecting.close();
      elsewhere.close();
    }
  });
});

describe('a config file others can read', () => {
  it('gets a warning with the fix', async () => {
    const own = await tempConfigHome();
    await mkdir(join(own, 'leadctl'), { recursive: true });
    const file = join(own, 'leadctl', 'config.json');
    await writeFile(
      file,
      JSON.stringify({ profiles: { default: { 'base-url': sandbox.url, 'api-key': sandbox.apiKey } } }),
    );
    await chmod(file, 0o644);
    const r = await runCli(['leads'], { env: { XDG_CONFIG_HOME: own } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
  });
});

describe('deprecation headers', () => {
  it('give one warning per run, and none with --quiet', async () => {
    const page = (n: number) =>
      JSON.stringify({
        leads: Array.from({ length: n }, (_, i) => ({ id: `lead-${n}-${i}`, name: `Lead ${i}` })),
        meta: { page: 1, limit: 100, total: 150, totalPages: 2 },
      });
    const server = await serve((req, res) => {
      const second = (req.url ?? '').includes('page=2');
      res
        .writeHead(200, {
          'content-type': 'application/json',
          deprecation: 'true',
          sunset: 'Wed, 01 Jul 2027 00:00:00 GMT',
        })
        .end(second ? page(50).replace('"page":1', '"page":2') : page(100));
    });
    try {
      const loud = await runCli(['leads', '--all', '--base-url', server.url, '--api-key', 'k'], {
        env: { XDG_CONFIG_HOME: home },
      });
      expect(loud.exitCode).toBe(0);
      expect(server.seen.length).toBeGreaterThanOrEqual(2);
      expect(loud.stderr.split('\n').filter((line) => /deprecat/i.test(line))).toHaveLength(1);
      const quiet = await runCli(['leads', '--all', '-q', '--base-url', server.url, '--api-key', 'k'], {
        env: { XDG_CONFIG_HOME: home },
      });
      expect(quiet.stderr).toBe('');
    } finally {
      server.close();
    }
  });
});
