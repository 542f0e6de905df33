// A throwaway PostgreSQL for the test run (global-setup.ts): initdb in a temp folder, a server on a free
// loopback port, a role that may create databases, and a stop that removes it all. As root (CI), the
// server runs as the unprivileged `postgres` user, since PostgreSQL refuses root. The binaries are
// Debian's (/usr/lib/postgresql/<major>/bin, which .ci/run installs) or an initdb on PATH.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface TestCluster {
  /** postgres://leadctl_test@127.0.0.1:PORT/postgres: a superuser, as the docs' set-up SQL needs. */
  url: string;
  password: string;
  stop(): void;
}

function binaries(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    const found = majors
      .map((major) => join(debian, major, 'bin'))
      .find((bin) => existsSync(join(bin, 'initdb')));
    if (found) return found;
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** Undefined (with the reason) where this machine has no PostgreSQL to start. */
export async function startTestCluster(): Promise<TestCluster | { missing: string }> {
  const bin = binaries();
  if (!bin)
    return {
      missing: 'no PostgreSQL server binaries (Debian: apt-get install postgresql; .ci/run installs it)',
    };
  const root = process.getuid?.() === 0;
  // The server user must reach the folder: a private TMPDIR (CI's) is not open to it, /tmp is.
  const base = root && (statSync(tmpdir()).mode & 0o001) === 0 ? '/tmp' : tmpdir();
  const dir = mkdtempSync(join(base, 'leadctl-pg-'));
  const asServer = (command: string, args: string[]) =>
    execFileSync(
      root ? 'runuser' : join(bin, command),
      root ? ['-u', 'postgres', '--', join(bin, command), ...args] : args,
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  const data = join(dir, 'data');
  let started = false;
  const stop = () => {
    if (started) {
      try {
        asServer('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (root)
      chownSync(
        dir,
        Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      );
    asServer('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    const port = await freePort();
    // Durability is not what tests check: no fsync makes every commit cheap.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    asServer('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
    const password = `test-${process.pid}-${Date.now()}`;
    const admin = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE ROLE leadctl_test LOGIN SUPERUSER PASSWORD '${password}'`);
    await admin.end();
    return { url: `postgres://leadctl_test@127.0.0.1:${port}/postgres`, password, stop };
  } catch (error) {
    stop();
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`could not start a test PostgreSQL: ${stderr || String(error)}`);
  }
}
