// `npm run bench -- --only sync`: `leadctl sync` of 100,000 leads (5,000 with --short) against bench/sync-minimal.mjs, the same
// fetches and the same rows in one transaction per page, in interleaved rounds on one server without
// latency, into SQLite (Node 22.13+) and into PostgreSQL (a throwaway cluster, test/helpers/postgres-cluster.ts,
// or BENCH_POSTGRES_URL with PGPASSWORD). Each round starts from an empty database.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measure } from './measure.mjs';
import { startServer } from './sandbox.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/leadctl.cjs');
const MINIMAL = join(root, 'bench/sync-minimal.mjs');

async function postgres() {
  if (process.env.BENCH_POSTGRES_URL)
    return { url: process.env.BENCH_POSTGRES_URL, password: process.env.PGPASSWORD, stop() {} };
  // Beside node_modules, which it imports pg from.
  const file = join(root, 'node_modules/.cache/leadctl-bench-cluster.mjs');
  await build({
    entryPoints: [join(root, 'test/helpers/postgres-cluster.ts')],
    outfile: file,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',

    logLevel: 'warning',
  });
  const cluster = await (await import(file)).startTestCluster();
  if ('missing' in cluster) throw new Error(cluster.missing);
  return cluster;
}

/** `leadctl sync` against bench/sync-minimal.mjs, per engine; goal: within 1.15x (issue 34). */
export async function syncRows({ node, sandbox, short, rounds }) {
  const leads = short ? 5_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'leadctl-bench-sync-'));
  const server = await startServer(sandbox, { leads, latencyMs: 0 });
  const hasSqlite = spawnSync(node, ['-e', "require('node:sqlite')"], { stdio: 'ignore' }).status === 0;
  const cluster = await postgres();
  process.env.PGPASSWORD = cluster.password;
  const pg = new (await import('pg')).default.Client(cluster.url);
  await pg.connect();
  const env = {
    ...process.env,
    PGPASSWORD: cluster.password,
    XDG_CONFIG_HOME: mkdtempSync(join(dir, 'config-')),
    XDG_STATE_HOME: mkdtempSync(join(dir, 'state-')),
    LEADCTL_BASE_URL: server.url,
    LEADCTL_API_KEY: server.apiKey,
  };
  let fresh = 0;
  const databases = {
    sqlite: async () => join(dir, `${++fresh}.db`),
    postgres: async () => {
      const name = `bench_${++fresh}`;
      await pg.query(`CREATE DATABASE ${name}`);
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      url.password = '';
      return url.href;
    },
  };
  const engines = hasSqlite ? ['sqlite', 'postgres'] : ['postgres'];
  const count = leads.toLocaleString('en-US');
  try {
    const rows = [];
    for (const engine of engines) {
      const runs = [[], []];
      const commands = [
        (db) => [BIN, 'sync', '-q', '--db', db],
        (db) => [MINIMAL, server.url, server.apiKey, db],
      ];
      for (let round = 0; round < rounds(short ? 2 : 5); round++) {
        for (const [index, args] of commands.entries()) {
          const db = await databases[engine]();
          await server.takeRequests();
          const result = await measure(node, args(db), { env, timeoutMs: 900_000 });
          if (result.exitCode !== 0)
            throw new Error(`sync (${engine}) exited ${result.exitCode}:\n${result.stderr}`);
          runs[index].push(Object.assign(result, await server.takeRequests()));
        }
      }
      rows.push({
        name: `\`sync\`, ${count} leads, ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
        reference: 'bench/sync-minimal.mjs (the same fetches and inserts)',
        leadctl: runs[0],
        ref: runs[1],
        goal: { cpu: 1.15, wall: 1.15 },
      });
    }
    return rows;
  } finally {
    await pg.end();
    cluster.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
