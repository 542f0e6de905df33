// The rows of the record. Each row runs leadctl beside its reference script (bench/ref-*.mjs, or bare
// Node) in interleaved rounds (a, b, a, b, …) against its own local server, so that the machine's load
// falls on both alike; report.mjs turns the rounds into paired ratios. A group is
// `async (ctx) => Row[]`, ctx = { node, version, sandbox, short, rounds(n) }.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measure } from './measure.mjs';
import { startServer } from './sandbox.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/leadctl.cjs');
export const script = (name) => join(root, 'bench', name);

// Everything the bench's runs write (config, usage ledger, checkpoints) goes under one folder,
// removed when the bench ends: nothing of the user's is read or written.
const SCRATCH = mkdtempSync(join(tmpdir(), 'leadctl-bench-home-'));
process.on('exit', () => rmSync(SCRATCH, { recursive: true, force: true }));

/** The environment of every run: this server, empty config and state folders, nothing else of the user's. */
export function cliEnv(server) {
  const env = {
    ...process.env,
    NO_COLOR: '1',
    XDG_CONFIG_HOME: mkdtempSync(join(SCRATCH, 'config-')),
    XDG_STATE_HOME: mkdtempSync(join(SCRATCH, 'state-')),
  };
  for (const name of Object.keys(env)) if (name.startsWith('LEADCTL_')) delete env[name];
  return server ? { ...env, LEADCTL_BASE_URL: server.url, LEADCTL_API_KEY: server.apiKey } : env;
}

/**
 * Runs `cases` ({ name, command, args, env?, countOutput?, timeoutMs? }) in interleaved rounds after
 * `warmup` uncounted ones (they fill the OS file cache). Returns each case's runs, in case order.
 */
export async function interleaved(cases, { rounds, warmup = 1, server }) {
  const runs = cases.map(() => []);
  for (let round = -warmup; round < rounds; round++) {
    for (const [index, c] of cases.entries()) {
      await server?.takeRequests();
      const result = await measure(c.command, c.args, {
        env: c.env,
        countOutput: c.countOutput,
        timeoutMs: c.timeoutMs ?? 900_000,
      });
      if (result.exitCode !== 0) throw new Error(`${c.name} exited ${result.exitCode}:\n${result.stderr}`);
      if (server) Object.assign(result, await server.takeRequests());
      if (round >= 0) runs[index].push(result);
    }
  }
  return runs;
}

/** One row: leadctl's runs beside the reference's, with the goal it is judged by (report.mjs). */
const row = (name, reference, [leadctl, ref], extra) => ({ name, reference, leadctl, ref, ...extra });

/** Start-up: --version and --help against `node -e 0`; one page against the 4-line fetch script. */
export async function startup({ node, version, sandbox, rounds, short }) {
  const server = await startServer(sandbox, { leads: 300, latencyMs: 0 });
  try {
    const env = cliEnv(server);
    const run = (name, command, args) => ({ name, command, args, env });
    // A host's start of `leadctl mcp` (initialize, tools/list, stdin closed) through bench/mcp-host.mjs,
    // beside the same host around `node -e 0`: the difference is the server's own cost.
    const host = (args) => [script('mcp-host.mjs'), node, ...args];
    const fields = (field) => [BIN, 'leads', '--csv', '--fields', `name,${field}`];
    const [bare, versionRuns, help, complete, page, fetchPage, website, domain, mcpBare, mcp] =
      await interleaved(
        [
          run('node -e 0', node, ['-e', '0']),
          run('leadctl --version', node, [BIN, '--version']),
          run('leadctl leads --help', node, [BIN, 'leads', '--help']),
          run('leadctl __complete', node, [BIN, '__complete', '--', 'leads', '--f']),
          run('leadctl leads --json', node, [BIN, 'leads', '--json']),
          run('ref-page.mjs', node, [script('ref-page.mjs')]),
          run('leadctl leads --fields name,website', node, fields('website')),
          run('leadctl leads --fields name,domain', node, fields('domain')),
          run('host around node -e 0', node, host(['-e', '0'])),
          run('host around leadctl mcp', node, host([BIN, 'mcp'])),
        ],
        { rounds: rounds(short ? 9 : 31), warmup: 2, server },
      );
    return [
      row('`--version`', '`node -e 0`', [versionRuns, bare], { goal: { cpu: 1.2 }, bare }),
      row('`leads --help`', '`node -e 0`', [help, bare], { goal: { cpu: 1.5 }, bare }),
      row('a TAB: `__complete -- leads --f`', '`node -e 0`', [complete, bare], { bare }),
      row('one page `leads --json`', 'bench/ref-page.mjs (fetch)', [page, fetchPage], {
        goal: { cpu: 1.2 },
        bare,
        // Node 20 waits for V8 to recompile undici's parser (docs/performance.md): figure only.
        judged: !version.startsWith('v20.'),
      }),
      // The derived domain field loads tldts only when it is named: the pair says what that costs.
      row('one page `--fields name,domain`', '`--fields name,website`', [domain, website], {}),
      row('`mcp` start (initialize + tools/list)', 'the same host around `node -e 0`', [mcp, mcpBare], {
        goal: { ownMs: 130 },
        bare: mcpBare,
        startup: 'mcp start',
      }),
    ];
  } finally {
    await server.close();
  }
}

/** `--all --csv` against the minimal 4-in-flight fetch exporter, at several sizes and latencies. */
function exportRow(leads, latencyMs, goal) {
  return async ({ node, sandbox, rounds, short }) => {
    const size = short ? Math.min(leads, 20_000) : leads;
    const server = await startServer(sandbox, { leads: size, latencyMs });
    try {
      const env = cliEnv(server);
      const runs = await interleaved(
        [
          { name: 'leadctl', command: node, args: [BIN, 'leads', '--all', '--csv'], env, countOutput: true },
          { name: 'ref-export.mjs', command: node, args: [script('ref-export.mjs')], env, countOutput: true },
        ],
        { rounds: rounds(short ? 2 : size >= 1_000_000 ? 5 : 7), server },
      );
      const latency = latencyMs ? ` at ${latencyMs} ms latency` : ', no latency';
      const name = `\`leads --all --csv\`, ${size.toLocaleString('en-US')} leads${latency}`;
      return [row(name, 'bench/ref-export.mjs (fetch, 4 in flight)', runs, { goal, leads: size })];
    } finally {
      await server.close();
    }
  };
}

// Issue 34's goals: CPU within 1.1x (the 1M row: 1.15x to be done), the 1M export inside one day of the
// biggest plan (10,000 requests) and under 150 MB; the latency-bound row is judged on wall time.
export const exportMillion = exportRow(1_000_000, 0, { cpu: 1.15, requests: 10_000, rssMb: 150 });
export const export200k = exportRow(200_000, 0, { cpu: 1.1, rssMb: 150 });
export const exportAtLatency = exportRow(20_000, 20, { wall: 1.05 });

// Rows beside issue 34's table, kept from earlier rounds (run on the first Node only).

/** The export's floor on this machine: undici alone in the pager's request pattern, bodies dropped. */
export async function floor({ node, sandbox, rounds, short }) {
  const leads = 20_000;
  const server = await startServer(sandbox, { leads, latencyMs: 20 });
  try {
    const env = cliEnv(server);
    const runs = await interleaved(
      [
        { name: 'leadctl', command: node, args: [BIN, 'leads', '--all', '--csv', '-q'], env },
        {
          name: 'undici-floor.mjs',
          command: node,
          args: [script('undici-floor.mjs'), server.url, server.apiKey, '4', String(leads / 100)],
          env,
        },
      ],
      { rounds: rounds(short ? 2 : 5), server },
    );
    return [row('`leads --all --csv`, 20,000 leads at 20 ms latency', 'bench/undici-floor.mjs', runs, {})];
  } finally {
    await server.close();
  }
}

/** A table (COLUMNS=120) against csv of the same 10,000 leads: at most twice the time (issue 22). */
export async function tableAgainstCsv({ node, sandbox, rounds, short }) {
  const server = await startServer(sandbox, { leads: 10_000, latencyMs: 0 });
  try {
    const env = cliEnv(server);
    const args = [BIN, 'leads', '--all'];
    const runs = await interleaved(
      [
        { name: 'table', command: node, args: [...args, '-f', 'table'], env: { ...env, COLUMNS: '120' } },
        { name: 'csv', command: node, args: [...args, '--csv'], env },
      ],
      { rounds: rounds(short ? 2 : 5), server },
    );
    return [row('`leads --all -f table`, 10,000 leads', '`--csv`', runs, { goal: { wall: 2 } })];
  } finally {
    await server.close();
  }
}

/** xlsx against csv, each written with -o: the xlsx writer's memory must stay flat. */
export async function xlsxAgainstCsv({ node, sandbox, rounds, short }) {
  const leads = short ? 20_000 : 1_000_000;
  const server = await startServer(sandbox, { leads, latencyMs: 0 });
  const dir = mkdtempSync(join(SCRATCH, 'xlsx-'));
  try {
    const env = cliEnv(server);
    const to = (file) => [BIN, 'leads', '--all', '-q', '-o', join(dir, file)];
    const runs = await interleaved(
      [
        { name: 'xlsx', command: node, args: to('leads.xlsx'), env },
        { name: 'csv', command: node, args: to('leads.csv'), env },
      ],
      { rounds: rounds(short ? 1 : 3), warmup: 0, server },
    );
    return [
      row(
        `\`leads --all -o leads.xlsx\`, ${leads.toLocaleString('en-US')} leads`,
        '`-o leads.csv`',
        runs,
        {},
      ),
    ];
  } finally {
    await server.close();
  }
}

/** The nightly run: `--checkpoint` after 250 new leads on 20,000 (at most 4 requests); no reference. */
export async function checkpointRun({ node, sandbox, rounds, short }) {
  const { startSandbox } = await import(pathToFileURL(sandbox).href);
  const server = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    leads: 20_000,
    latencyMs: 20,
    seed: 1,
    dailyLimit: 1_000_000_000,
    recordRequests: false,
  });
  let requests = 0;
  server.onRequest(() => {
    requests += 1;
  });
  try {
    const env = cliEnv({ url: server.url, apiKey: server.apiKey });
    const dir = mkdtempSync(join(SCRATCH, 'checkpoint-'));
    const args = [
      BIN,
      'leads',
      '--checkpoint',
      join(dir, 'leads.ckpt'),
      '--csv',
      '-o',
      join(dir, 'leads.csv'),
    ];
    // The first run exports everything and writes the checkpoint: set-up, not measured.
    await measure(node, [...args, '--append'], { env });
    const runs = [];
    for (let round = 0; round < rounds(short ? 2 : 5); round++) {
      server.addLeads(250);
      requests = 0;
      const result = await measure(node, [...args, '--append'], { env });
      if (result.exitCode !== 0)
        throw new Error(`checkpoint run exited ${result.exitCode}:\n${result.stderr}`);
      runs.push({ ...result, requests });
    }
    return [
      row('`leads --checkpoint --append`: 250 new on 20,000', '', [runs, undefined], {
        goal: { requests: 4 },
      }),
    ];
  } finally {
    await server.close();
  }
}
