// `npm run bench -- --only sync`: `leadctl sync` of N leads against bench/sync-minimal.mjs, the same
// fetches and the same rows in one transaction per page, in interleaved rounds on one server without
// latency, into SQLite (Node 22.13+) and into PostgreSQL (a throwaway cluster, test/helpers/postgres-cluster.ts,
// or BENCH_POSTGRES_URL with PGPASSWORD). Each round starts from an empty database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measure } from './measure.mjs';
import { startServer } from './sandbox.mjs';
import { summarise } from './stats.mjs';

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

export async function syncAgainstMinimal(bundle, { leads, runs }) {
  const dir = mkdtempSync(join(tmpdir(), 'leadctl-bench-sync-'));
  const server = await startServer(bundle, { leads, latencyMs: 0 });
  const hasSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;
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
  const targets = {
    sqlite: async () => join(dir, `${++fresh}.db`),
    postgres: async () => {
      const name = `bench_${++fresh}`;
      await pg.query(`CREATE DATABASE ${name}`);
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      return url.href;
    },
  };
  const count = leads.toLocaleString('en-US');
  const cases = ['sqlite', 'postgres']
    .filter((engine) => engine === 'postgres' || hasSqlite)
    .flatMap((engine) => [
      {
        name: `leadctl sync, ${count} leads, ${engine}`,
        kind: `sync-${engine}`,
        args: (db) => [BIN, 'sync', '-q', '--db', db],
      },
      {
        name: `minimal fetch + insert script, ${count} leads, ${engine}`,
        kind: `sync-${engine}-floor`,
        args: (db) => [MINIMAL, server.url, server.apiKey, db],
      },
    ]);
  const results = new Map(cases.map((c) => [c.name, []]));
  try {
    for (let round = 0; round < runs; round++) {
      for (const c of cases) {
        const db = await targets[c.kind.split('-')[1]]();
        await server.takeRequests();
        const result = await measure(process.execPath, c.args(db), { env, timeoutMs: 900_000 });
        if (result.exitCode !== 0) throw new Error(`${c.name} exited ${result.exitCode}:\n${result.stderr}`);
        results.get(c.name).push({ ...result, ...(await server.takeRequests()) });
      }
    }
    return cases.map((c) => ({ name: c.name, kind: c.kind, leads, ...summarise(results.get(c.name)) }));
  } finally {
    await pg.end();
    cluster.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each engine's pair: leadctl over the minimal script, wall and CPU (goal: within 1.15x, issue 34). */
export function judgeSync(rows, notes) {
  for (const row of rows.filter((r) => /^sync-\w+$/.test(r.kind))) {
    const floor = rows.find((r) => r.kind === `${row.kind}-floor`);
    if (!floor) continue;
    const wall = row.wallMs / floor.wallMs;
    const cpu = row.cpuMs / floor.cpuMs;
    notes.set(row, {
      text: `wall ${wall.toFixed(2)}x, CPU ${cpu.toFixed(2)}x the minimal script (goal <= 1.15x)`,
      ok: wall <= 1.15 && cpu <= 1.15,
      label: row.kind,
    });
  }
}
