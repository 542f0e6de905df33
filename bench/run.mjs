// `npm run bench`: builds, then runs every row of the record on every Node given, each beside its
// reference script in interleaved rounds (scenarios.mjs), and prints one table per Node with paired
// ratios (report.mjs). Every server is local (127.0.0.1) and runs in its own process.
//   --node PATH       a Node to run on (repeatable); default this Node and those cached by --record
//   --record          also install Node 22 and 24 where missing (as .ci/run does), and write
//                     bench/RESULTS.md and the start-up budget (bench/startup-budget.json)
//   --short           small sizes, few rounds: a quick look (a minute or two a Node)
//   --only a,b        only these groups (names below)
//   --ci              the CI step: the start-up rows, short, on this Node; exits 1 when leadctl's own
//                     CPU cost over `node -e 0` grew past the budget by more than its margin
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { usageSource } from './measure.mjs';
import { load, machine, ownCost, table, verdict } from './report.mjs';
import { bundleSandbox } from './sandbox.mjs';
import {
  checkpointRun,
  export200k,
  exportAtLatency,
  exportMillion,
  floor,
  startup,
  tableAgainstCsv,
  xlsxAgainstCsv,
} from './scenarios.mjs';
import { syncRows } from './sync.mjs';

/** Issue 34's rows run on every Node; the older rows beside them on the first Node only. */
const GROUPS = {
  startup: { run: startup, everyNode: true },
  'export-1m': { run: exportMillion, everyNode: true },
  'export-200k': { run: export200k, everyNode: true },
  latency: { run: exportAtLatency, everyNode: true },
  sync: { run: syncRows, everyNode: true },
  floor: { run: floor, everyNode: false },
  table: { run: tableAgainstCsv, everyNode: false },
  xlsx: { run: xlsxAgainstCsv, everyNode: false },
  checkpoint: { run: checkpointRun, everyNode: false },
};

const { values: opts } = parseArgs({
  options: {
    node: { type: 'string', multiple: true },
    record: { type: 'boolean', default: false },
    short: { type: 'boolean', default: false },
    ci: { type: 'boolean', default: false },
    only: { type: 'string', default: Object.keys(GROUPS).join(',') },
    rounds: { type: 'string' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const BUDGET = join(root, 'bench/startup-budget.json');
const log = (text) => process.stderr.write(`bench: ${text}\n`);

/** Node majors CI runs beside this one, cached where --record installs them. */
const CACHE = join(root, 'node_modules/.cache/leadctl-bench');
const cachedNode = (major) => join(CACHE, `node${major}`, 'node_modules/.bin/node');
function nodes() {
  if (opts.node) return opts.node;
  if (opts.ci) return [process.execPath];
  for (const major of opts.record ? [22, 24] : []) {
    if (existsSync(cachedNode(major))) continue;
    log(`installing Node ${major} into ${CACHE}…`);
    mkdirSync(join(CACHE, `node${major}`), { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        join(CACHE, `node${major}`),
        '--no-audit',
        '--no-fund',
        '--no-save',
        `node@${major}`,
      ],
      {
        stdio: 'ignore',
      },
    );
  }
  return [process.execPath, ...[22, 24].map(cachedNode).filter((file) => existsSync(file))];
}

const groups = opts.ci ? ['startup'] : opts.only.split(',');
for (const name of groups)
  if (!GROUPS[name]) throw new Error(`unknown group ${name}: ${Object.keys(GROUPS).join(', ')}`);
const short = opts.short || opts.ci;
const rounds = (n) => (opts.rounds ? Number(opts.rounds) : n);

const started = Date.now();
const sandbox = await bundleSandbox();
// Ctrl-C or a kill still removes the bench's temp folders (exit handlers) and ends its servers (IPC).
process.on('exit', () => sandbox.remove());
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const sections = [];
const budget = JSON.parse(readFileSync(BUDGET, 'utf8'));
const overBudget = [];
try {
  for (const [index, node] of nodes().entries()) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    const before = load();
    const rows = [];
    for (const name of groups) {
      if (!GROUPS[name].everyNode && index > 0) continue;
      log(`${version}: ${name}…`);
      rows.push(...(await GROUPS[name].run({ node, version, sandbox: sandbox.file, short, rounds })));
    }
    sections.push({ version, rows, load: `${before} at the start, ${load()} at the end` });
    const major = version.slice(1).split('.')[0];
    for (const row of rows.filter((r) => r.bare)) {
      const own = ownCost(row.leadctl, row.bare);
      const recorded = budget.ownCostMs[major]?.[row.name];
      if (opts.record && !short) {
        budget.ownCostMs[major] = { ...budget.ownCostMs[major], [row.name]: Math.round(own) };
      } else if (recorded !== undefined && own > recorded * (1 + budget.marginShare) + budget.marginMs)
        overBudget.push(
          `${version} ${row.name}: ${own.toFixed(0)} ms over node -e 0; budget ${recorded} ms + ${budget.marginShare * 100}% + ${budget.marginMs} ms`,
        );
    }
  }
} finally {
  sandbox.remove();
}

const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const missed = sections.flatMap(({ version, rows }) =>
  rows.filter((row) => verdict(row).ok === false).map((row) => `${version} ${row.name}`),
);
const output = [
  ...sections.map(
    ({ version, rows, load: l }) =>
      `## Node ${version}\n\nLoad average (1, 5, 15 min): ${l}.\n\n${table(rows)}`,
  ),
  [
    `- Machine: ${machine()}.`,
    `- Command: \`${command}\` (${((Date.now() - started) / 1000).toFixed(0)} s). CPU (user+sys) and peak RSS: ${usageSource}; wall: around the child process.`,
    '- Ratios: leadctl over its reference in the same round, median (min-max) over the rounds; the reference scripts are bench/ref-*.mjs.',
    '- Own cost: CPU ms over `node -e 0` in the same round, median of the differences (the start-up budget of `--ci`).',
  ].join('\n'),
].join('\n\n');
process.stdout.write(
  `\n${output}\n\n${missed.length ? `goals missed: ${missed.join('; ')}` : 'all goals met'}\n`,
);

if (opts.record) {
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(
    new URL('RESULTS.md', import.meta.url),
    `# Benchmark results\n\nRecorded ${date} by \`${command}\`; bench/scenarios.mjs says what each row runs, docs/performance.md why.\n\n${output}\n`,
  );
  if (!short) writeFileSync(BUDGET, `${JSON.stringify(budget, null, 2)}\n`);
  log('wrote bench/RESULTS.md and bench/startup-budget.json');
}
if (overBudget.length) {
  process.stderr.write(
    `bench: start-up grew past its budget (bench/startup-budget.json):\n  ${overBudget.join('\n  ')}\n`,
  );
  process.exitCode = 1;
}
