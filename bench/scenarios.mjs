// The measurements of the performance issue, each run several times against its own local server.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './measure.mjs';
import { startServer } from './sandbox.mjs';
import { summarise } from './stats.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/leadctl.cjs');
const CURL_JQ = join(root, 'bench/curl-jq.sh');
const FLOOR = join(root, 'bench/undici-floor.mjs');
const node = process.execPath;
const RUN_TIMEOUT_MS = 180_000;

// Everything the bench's runs write (config, usage ledger, checkpoints) goes under one folder,
// removed when the bench ends: nothing of the user's is read or written.
const SCRATCH = mkdtempSync(join(tmpdir(), 'leadctl-bench-home-'));
process.on('exit', () => rmSync(SCRATCH, { recursive: true, force: true }));

/** The CLI's environment: this server, empty config and state folders, nothing else of the user's. */
function cliEnv(server) {
  const env = {
    ...process.env,
    NO_COLOR: '1',
    XDG_CONFIG_HOME: mkdtempSync(join(SCRATCH, 'config-')),
    XDG_STATE_HOME: mkdtempSync(join(SCRATCH, 'state-')),
  };
  for (const name of Object.keys(env)) if (name.startsWith('LEADCTL_')) delete env[name];
  return server ? { ...env, LEADCTL_BASE_URL: server.url, LEADCTL_API_KEY: server.apiKey } : env;
}

async function runChecked(label, command, args, options) {
  const result = await measure(command, args, { timeoutMs: RUN_TIMEOUT_MS, ...options });
  if (result.exitCode !== 0) throw new Error(`${label} exited ${result.exitCode}:\n${result.stderr}`);
  return result;
}

/**
 * Runs `cases` in interleaved rounds (a, b, c, a, b, c, …) so that a change in machine load hits every
 * case alike; the first `warmup` rounds fill the OS file cache and are not counted.
 */
async function rounds(cases, { count, warmup = 0, server }) {
  const runs = new Map(cases.map((c) => [c.name, []]));
  for (let round = -warmup; round < count; round++) {
    for (const c of cases) {
      if (round >= (c.rounds ?? count)) continue;
      await server?.takeRequests();
      const result = await runChecked(c.name, c.command, c.args, {
        env: c.env,
        countOutput: c.countOutput,
        ...(c.timeoutMs ? { timeoutMs: c.timeoutMs } : {}),
      });
      if (server) Object.assign(result, await server.takeRequests());
      if (round >= 0) runs.get(c.name).push(result);
    }
  }
  return cases.map((c) => ({ name: c.name, ...c.meta, ...summarise(runs.get(c.name)) }));
}

export async function startupAndOnePage(bundle, { runs }) {
  const server = await startServer(bundle, { leads: 300, latencyMs: 0 });
  try {
    const env = cliEnv(server);
    return await rounds(
      [
        { name: 'node -e 0', command: node, args: ['-e', '0'], env, meta: { kind: 'bare' } },
        {
          name: 'leadctl --version',
          command: node,
          args: [BIN, '--version'],
          env,
          meta: { kind: 'version' },
        },
        {
          name: 'leadctl leads --help',
          command: node,
          args: [BIN, 'leads', '--help'],
          env,
          meta: { kind: 'help' },
        },
        {
          name: 'leadctl __complete -- leads --f (a TAB in any shell)',
          command: node,
          args: [BIN, '__complete', '--', 'leads', '--f'],
          env,
          meta: { kind: 'complete' },
        },
        {
          name: 'leadctl leads --json (1 page of 25)',
          command: node,
          args: [BIN, 'leads', '--json'],
          env,
          meta: { kind: 'page' },
        },
        // The derived domain field loads tldts (~20 ms) only when named: the pair says what it costs.
        ...['website', 'domain'].map((field) => ({
          name: `leadctl leads --csv --fields name,${field} (1 page)`,
          command: node,
          args: [BIN, 'leads', '--csv', '--fields', `name,${field}`],
          env,
          meta: { kind: `page-${field}` },
        })),
      ],
      { count: runs, warmup: 3, server },
    );
  } finally {
    await server.close();
  }
}

export const jqAvailable = () =>
  ['jq', 'curl'].every((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0);

export async function exportAtLatency(bundle, { leads, latencyMs, concurrency, runs, baselineRuns }) {
  const server = await startServer(bundle, { leads, latencyMs });
  try {
    const env = cliEnv(server);
    const exportArgs = [BIN, 'leads', '--all', '--csv'];
    const cases = [
      {
        name: `leadctl leads --all --csv --concurrency ${concurrency}`,
        command: node,
        args: [...exportArgs, '--concurrency', String(concurrency)],
        env,
        countOutput: true,
        meta: { kind: 'export', leads, latencyMs, concurrency },
      },
      {
        name: 'baseline: same export, --concurrency 1',
        command: node,
        args: [...exportArgs, '--concurrency', '1'],
        env,
        countOutput: true,
        rounds: baselineRuns,
        meta: { kind: 'export-c1', leads, latencyMs, concurrency: 1 },
      },
    ];
    cases.push({
      name: `floor: undici alone, page 1, then ${concurrency} in flight, then a last probe; bodies dropped`,
      command: node,
      args: [FLOOR, server.url, server.apiKey, String(concurrency), String(Math.ceil(leads / 100))],
      env,
      rounds: baselineRuns,
      meta: { kind: 'floor', leads, latencyMs, concurrency },
    });
    if (jqAvailable()) {
      cases.push({
        name: 'baseline: shell loop, curl per page + jq @csv',
        command: 'bash',
        args: [CURL_JQ, server.url, server.apiKey],
        env,
        countOutput: true,
        rounds: baselineRuns,
        meta: { kind: 'curl-jq', leads, latencyMs, concurrency: 1 },
      });
    }
    return await rounds(cases, { count: runs, warmup: 1, server });
  } finally {
    await server.close();
  }
}

/** Peak memory of the same export at several sizes, on servers without latency (the client at full speed). */
export async function memoryBySize(bundle, { sizes, runs }) {
  const results = [];
  // One server at a time: a million-lead server is big enough to crowd the others out.
  for (const leads of sizes) {
    const server = await startServer(bundle, { leads, latencyMs: 0 });
    try {
      const [row] = await rounds(
        [
          {
            name: `leadctl leads --all --csv, ${leads.toLocaleString('en-US')} leads, no latency`,
            command: node,
            args: [BIN, 'leads', '--all', '--csv'],
            env: cliEnv(server),
            countOutput: true,
            meta: { kind: 'memory', leads, latencyMs: 0 },
          },
        ],
        { count: runs, server },
      );
      results.push(row);
    } finally {
      await server.close();
    }
  }
  return results;
}

/**
 * The nightly run: `--checkpoint` on top of a list of `leads` after `added` new ones were saved.
 * The server runs in this process (its addLeads is needed between runs); each counted run follows a
 * fresh batch of `added`, so every run fetches exactly that many.
 */
export async function incrementalExport(bundle, { leads, added, latencyMs, runs }) {
  const { pathToFileURL } = await import('node:url');
  const { startSandbox } = await import(pathToFileURL(bundle).href);
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    leads,
    latencyMs,
    seed: 1,
    dailyLimit: 1_000_000_000,
    recordRequests: false,
  });
  let requests = 0;
  sandbox.onRequest(() => {
    requests += 1;
  });
  try {
    const env = cliEnv({ url: sandbox.url, apiKey: sandbox.apiKey });
    const dir = mkdtempSync(join(SCRATCH, 'checkpoint-'));
    const args = [
      BIN,
      'leads',
      '--checkpoint',
      join(dir, 'leads.ckpt'),
      '--csv',
      '-o',
      join(dir, 'leads.csv'),
      '--append',
    ];
    // The first run exports everything and writes the checkpoint: set-up, not measured.
    await runChecked('first checkpoint run', node, args, { env });
    const results = [];
    for (let round = 0; round < runs; round++) {
      sandbox.addLeads(added);
      requests = 0;
      const result = await runChecked('checkpoint run', node, args, { env });
      results.push({ ...result, requests, records: added });
    }
    const bound = Math.ceil(added / 100) + 1;
    return [
      {
        name: `leadctl leads --checkpoint --csv --append: ${added} new on ${leads.toLocaleString('en-US')} (at most ${bound} requests)`,
        kind: 'checkpoint',
        leads,
        latencyMs,
        ...summarise(results),
      },
    ];
  } finally {
    await sandbox.close();
  }
}

/**
 * A table against csv, the same 10,000 leads from a server without latency: the table's own cost.
 * Piped with COLUMNS=120, the table is laid out as on a 120-column terminal.
 */
export async function tableAgainstCsv(bundle, { leads, runs }) {
  const server = await startServer(bundle, { leads, latencyMs: 0 });
  try {
    const env = cliEnv(server);
    return await rounds(
      [
        {
          name: `leadctl leads --all --csv, ${leads.toLocaleString('en-US')} leads`,
          command: node,
          args: [BIN, 'leads', '--all', '--csv'],
          env,
          countOutput: true,
          meta: { kind: 'table-csv', leads, latencyMs: 0 },
        },
        {
          name: `leadctl leads --all -f table (COLUMNS=120), ${leads.toLocaleString('en-US')} leads`,
          command: node,
          args: [BIN, 'leads', '--all', '-f', 'table'],
          env: { ...env, COLUMNS: '120' },
          countOutput: true,
          meta: { kind: 'table', leads, latencyMs: 0 },
        },
      ],
      { count: runs, warmup: 1, server },
    );
  } finally {
    await server.close();
  }
}

/**
 * xlsx against csv, paired (interleaved rounds on one server without latency), each written with -o:
 * the xlsx writer's peak memory must stay flat however many rows stream through its zip.
 */
export async function xlsxAgainstCsv(bundle, { leads, runs }) {
  const server = await startServer(bundle, { leads, latencyMs: 0 });
  const dir = mkdtempSync(join(SCRATCH, 'xlsx-'));
  try {
    const env = cliEnv(server);
    const count = leads.toLocaleString('en-US');
    return await rounds(
      [
        {
          name: `leadctl leads --all -o leads.csv, ${count} leads, no latency`,
          command: node,
          args: [BIN, 'leads', '--all', '-q', '-o', join(dir, 'leads.csv')],
          env,
          timeoutMs: 900_000,
          meta: { kind: 'xlsx-csv', leads, latencyMs: 0 },
        },
        {
          name: `leadctl leads --all -o leads.xlsx, ${count} leads, no latency`,
          command: node,
          args: [BIN, 'leads', '--all', '-q', '-o', join(dir, 'leads.xlsx')],
          env,
          timeoutMs: 900_000,
          meta: { kind: 'xlsx', leads, latencyMs: 0 },
        },
      ],
      { count: runs, server },
    );
  } finally {
    await server.close();
  }
}
