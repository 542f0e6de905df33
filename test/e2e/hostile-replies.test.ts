// Replies no API should send, as a broken proxy, a wrong port or a hostile server sends them: each
// ends with exit 7 (or 5 for a 429) and one clear line, never a crash, never exit 1, never unbounded
// memory.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type Answer, type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const run = (baseUrl: string, args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['leads', '--json', '--base-url', baseUrl, '--api-key', 'k', '--retries', '1', ...args], {
    env: { XDG_CONFIG_HOME: tempDir('config'), ...env },
  });

/** stderr holds exactly these lines (the error and its hint), with no sign of a crash. */
function expectCleanFailure(stderr: string, line: RegExp | string): void {
  // The lines a person reads; --json ends stderr with the same facts as one JSON line (agent-errors.test.ts).
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('{"error":'));
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(stderr).not.toMatch(/please report|\n\s+at |NaN-NaN|Invalid Date/);
}

/** A TCP server that answers every request with `reply` bytes: what node:http would refuse to send. */
async function startRawServer(
  reply: string,
): Promise<{ baseUrl: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const raw = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => socket.end(reply));
  });
  let connections = 0;
  raw.on('connection', () => connections++);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const { port } = raw.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        raw.close(() => resolve());
      }),
  };
}

/** A 200 whose chunked body never ends; records what it managed to send and whether the client hung up. */
function endlessBody(seen: { bytes: number; closed: boolean }): Answer {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.on('close', () => {
      seen.closed = true;
    });
    res.write('{"leads":[');
    const pump = () => {
      while (!res.destroyed) {
        seen.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };
}

describe('bounded reading', () => {
  it('a body over the cap (LEADCTL_MAX_BODY_BYTES) fails with exit 7, not retried, not read to its end', async () => {
    const body = JSON.stringify({ leads: [{ id: 'a', name: 'x'.repeat(200_000) }], meta: { total: 1 } });
    server.route('GET', '/api/v1/leads', json(200, body));
    const capped = await run(server.baseUrl, [], { LEADCTL_MAX_BODY_BYTES: '100000' });
    expect(capped.exitCode).toBe(7);
    expect(capped.stdout).toBe('');
    expectCleanFailure(capped.stderr, /^leadctl: server answered 200 with a body larger than 100000 bytes/);
    expect(capped.stderr).toContain('LEADCTL_MAX_BODY_BYTES');
    // Not retried: the same server would send the same body again.
    expect(server.requests).toHaveLength(1);
    // Under the default cap the same body is an ordinary page.
    expect((await run(server.baseUrl)).exitCode).toBe(0);
  });

  it('a cap that is not a whole number of bytes is a usage error, before any request', async () => {
    const { exitCode, stderr } = await run(server.baseUrl, [], { LEADCTL_MAX_BODY_BYTES: '16MB' });
    expect(exitCode).toBe(2);
    expectCleanFailure(
      stderr,
      'leadctl: LEADCTL_MAX_BODY_BYTES must be a whole number of bytes, 1 or more: "16MB"',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('a body that never ends stops at the default cap of 16 MiB: exit 7, the connection dropped', async () => {
    const seen = { bytes: 0, closed: false };
    server.route('GET', '/api/v1/leads', endlessBody(seen));
    const { exitCode, stdout, stderr } = await run(server.baseUrl, ['--timeout', '120']);
    expect(exitCode).toBe(7);
    expect(stdout).toBe('');
    expectCleanFailure(
      stderr,
      /^leadctl: server answered 200 with a body larger than 16 MiB; leadctl stopped reading it$/,
    );
    expect(seen.closed).toBe(true);
    // It could send no more than was read plus what the sockets buffer: reading stopped near the cap.
    expect(seen.bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('JSON nested 100,000 deep: exit 7 with a clear line, nothing on stdout', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    server.route('GET', '/api/v1/leads', json(200, `{"leads":[{"id":"a","x":${deep}}],"meta":{"total":1}}`));
    const { exitCode, stdout, stderr } = await run(server.baseUrl);
    expect(exitCode).toBe(7);
    expect(stdout).toBe('');
    expectCleanFailure(stderr, /^leadctl: server answered 200 with JSON nested deeper than 1000 levels$/);
  });
});

describe('replies that are not HTTP', () => {
  it.each([
    ['another protocol on the port', 'SSH-2.0-OpenSSH_9.6\r\n', /Expected HTTP\//],
    [
      'a header value with a control byte',
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Note: a\x01b\r\nContent-Length: 2\r\n\r\n{}',
      /Invalid header value char/,
    ],
    [
      'a header name with a space',
      'HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 2\r\n\r\n{}',
      /Invalid header token/,
    ],
  ])('%s: exit 7, one line naming the host, not retried', async (_what, reply, reason) => {
    const raw = await startRawServer(reply);
    try {
      const { exitCode, stdout, stderr } = await run(raw.baseUrl);
      expect(exitCode).toBe(7);
      expect(stdout).toBe('');
      const host = raw.baseUrl.slice('http://'.length);
      expectCleanFailure(stderr, new RegExp(`^leadctl: ${host} did not answer with valid HTTP \\(`));
      expect(stderr.split('\n')[0]).toMatch(reason);
      expect(stderr).toContain('check --base-url');
      expect(raw.connections()).toBe(1);
    } finally {
      await raw.close();
    }
  });
});

describe('absurd retryAfter values', () => {
  it.each([
    ['1e300', '{"retryAfter":1e300}', '"1e+300"'],
    ['a huge negative number', '{"error":{"retryAfter":-1e400}}', '"-Infinity"'],
    ['"NaN"', '{"detail":{"retryAfter":"NaN"}}', '"NaN"'],
    ['"1e999"', '{"retry_after":"1e999"}', '"1e999"'],
  ])('%s: exit 5, quoted, never waited on', async (_what, body, quoted) => {
    server.route('GET', '/api/v1/leads', json(429, body));
    const { exitCode, stdout, stderr } = await run(server.baseUrl);
    expect(exitCode).toBe(5);
    expect(stdout).toBe('');
    expectCleanFailure(stderr, `leadctl: rate limit reached; the server says retry after ${quoted}`);
    expect(server.requests).toHaveLength(1);
  });

  it('a Retry-After header beyond any date counts as no answer, not as NaN-NaN-NaN', async () => {
    server.route('GET', '/api/v1/leads', json(429, '{}', { 'retry-after': '9'.repeat(30) }));
    const { exitCode, stderr } = await run(server.baseUrl, ['--max-wait', '0']);
    expect(exitCode).toBe(5);
    expectCleanFailure(
      stderr,
      /^leadctl: rate limit reached; the server did not say when to retry, and waiting is off \(a longest wait of 0\)$/,
    );
  });
});
