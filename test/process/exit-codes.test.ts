// One test per row of cli.md's exit-code table, each through the built binary over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runBinary, spawnCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
let home: string;
const env = () => ({ XDG_CONFIG_HOME: home });

/** A server that answers every request with one fixed status, content type and body. */
async function fixedServer(
  status: number,
  contentType: string,
  body: string,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': contentType }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 30 });
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

describe('exit codes', () => {
  it('0: success', async () => {
    const r = await runBinary(['leads', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
      env: env(),
    });
    expect(r.exitCode).toBe(0);
  });

  it('1: an unexpected failure, such as stdout on a full disk, is one line without a stack trace', async () => {
    // The shell opens /dev/full as the process's own stdout, as `leadctl leads > /dev/full` would.
    const r = await execa(
      'bash',
      ['-c', `node "$0" leads --base-url "$1" --api-key "$2" > /dev/full`, BIN, sandbox.url, sandbox.apiKey],
      {
        reject: false,
        env: cleanEnv({ XDG_CONFIG_HOME: home }),
      },
    );
    expect(r.exitCode).toBe(1);
    const stderr = String(r.stderr);
    expect(stderr).toMatch(/^leadctl: .*(no space|ENOSPC)/im);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('2: an unknown option, with a suggestion', async () => {
    const r = await runBinary(['leads', '--limt', '5'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^leadctl: unknown option '--limt'/);
    expect(r.stderr).toContain('--limit');
  });

  it('2: a 422 from the server, with its message', async () => {
    const { url, server } = await fixedServer(
      422,
      'application/json',
      '{"detail":[{"loc":["body","location"],"msg":"unknown place"}]}',
    );
    try {
      const r = await runBinary(
        ['search', 'plumber', '-l', 'Atlantis', '--base-url', url, '--api-key', 'k'],
        {
          env: env(),
        },
      );
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('unknown place');
    } finally {
      server.close();
    }
  });

  it('2: no base URL says the ways to set one', async () => {
    const r = await runBinary(['leads', '--api-key', 'k'], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('LEADCTL_BASE_URL');
    expect(r.stderr).toContain('--sandbox');
  });

  it('3: no API key configured', async () => {
    const r = await runBinary(['leads', '--base-url', sandbox.url], { env: env() });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('leadctl config set api-key');
    expect(sandbox.requests.some((q) => q.authorization === undefined)).toBe(false);
  });

  it('3: 401 for a wrong key, and the key is not echoed', async () => {
    const r = await runBinary(['leads', '--base-url', sandbox.url, '--api-key', 'sk_wrong_secret_1234'], {
      env: env(),
    });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).not.toContain('sk_wrong_secret_1234');
  });

  it('4: 403 for a deactivated account', async () => {
    const r = await runBinary(['leads', '--base-url', sandbox.url, '--api-key', sandbox.keys.deactivated], {
      env: env(),
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr.split('\n')[0]).toMatch(/^leadctl: /);
  });

  it('5: a rate limit hours away stops at once with the reset time', async () => {
    const limited = await startSandbox({ dailyLimit: 0 });
    try {
      const r = await runBinary(['leads', '--base-url', limited.url, '--api-key', limited.apiKey], {
        env: env(),
      });
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toMatch(/rate limit/i);
      expect(r.stderr).toMatch(/in \d+h \d+m|in \d+m/);
      expect(limited.requests).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });

  it('6: a server that keeps failing, after the retries', async () => {
    const failing = await startSandbox({ failRate: 1 });
    try {
      const r = await runBinary(
        ['leads', '--retries', '1', '--base-url', failing.url, '--api-key', failing.apiKey],
        {
          env: env(),
        },
      );
      expect(r.exitCode).toBe(6);
      expect(failing.requests).toHaveLength(2);
    } finally {
      await failing.close();
    }
  });

  it('6: nothing listening', async () => {
    const { url, server } = await fixedServer(200, 'application/json', '{}');
    await new Promise((resolve) => server.close(resolve));
    const r = await runBinary(['leads', '--retries', '0', '--base-url', url, '--api-key', 'k'], {
      env: env(),
    });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/refused/i);
  });

  it('7: a 200 that is not JSON', async () => {
    const { url, server } = await fixedServer(
      200,
      'text/html',
      '<html><body>Welcome to nginx!</body></html>',
    );
    try {
      const r = await runBinary(['leads', '--base-url', url, '--api-key', 'k'], { env: env() });
      expect(r.exitCode).toBe(7);
      expect(r.stderr).toContain('200');
      expect(r.stderr).toContain('Welcome to nginx');
    } finally {
      server.close();
    }
  });

  it('130: Ctrl-C during a request', async () => {
    // A server that holds every request open: the signal surely arrives while the request is in flight.
    let arrived: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const held = createServer(() => arrived());
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(held.address() as AddressInfo).port}`;
      const child = spawnCli(['leads', '--base-url', url, '--api-key', 'k'], { env: env() });
      await inFlight;
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(String(r.stderr)).toBe('leadctl: interrupted\n');
      expect(String(r.stdout)).toBe('');
    } finally {
      held.closeAllConnections();
      held.close();
    }
  });
});

describe('a closed pipe', () => {
  it.each([
    ['search', '--help'],
    ['leads', '--all', '--format', 'ndjson', '--sandbox'],
  ])('`leadctl %s %s | head -c 10` ends quietly with exit 0', async (...args) => {
    const r = await execa(
      'bash',
      ['-c', 'node "$@" | head -c 10 > /dev/null; echo "$' + '{PIPESTATUS[0]}"', 'bash', BIN, ...args],
      {
        reject: false,
        env: cleanEnv({ XDG_CONFIG_HOME: home }),
      },
    );
    expect(String(r.stdout).trim()).toBe('0');
    expect(String(r.stderr)).toBe('');
  });
});
