// `npm run bench`: builds, then measures start-up, one page, a 20,000-lead export against a server with
// 20 ms latency (plus two baselines: --concurrency 1 and a curl | jq shell loop) and peak memory at
// 20,000 vs 200,000 vs 1,000,000 leads. Prints a table of medians; `npm run bench -- --record` also writes
// bench/RESULTS.md. Every server is local (127.0.0.1) and runs in its own process.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { hasGnuTime, usageSource } from './measure.mjs';
import { judge, machine, table } from './report.mjs';
import { bundleSandbox } from './sandbox.mjs';
import {
  exportAtLatency,
  incrementalExport,
  jqAvailable,
  memoryBySize,
  startupAndOnePage,
  tableAgainstCsv,
  xlsxAgainstCsv,
} from './scenarios.mjs';
import { judgeSync, syncAgainstMinimal } from './sync.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    'export-runs': { type: 'string', default: '5' },
    'baseline-runs': { type: 'string', default: '3' },
    'memory-runs': { type: 'string', default: '3' },
    'table-leads': { type: 'string', default: '10000' },
    leads: { type: 'string', default: '20000' },
    'big-leads': { type: 'string', default: '200000' },
    'huge-leads': { type: 'string', default: '1000000' },
    'xlsx-leads': { type: 'string', default: '1000000' },
    latency: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
    'sync-leads': { type: 'string', default: '100000' },
    record: { type: 'boolean', default: false },
    // e.g. `--only export,memory`: run only these groups (startup, export, checkpoint, memory, table, xlsx, sync).
    only: { type: 'string', default: 'startup,export,checkpoint,memory,table,xlsx,sync' },
  },
});
const only = new Set(opts.only.split(','));
const int = (name) => {
  const value = Number(opts[name]);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be a whole number >= 1`);
  return value;
};
const PAGE_SIZE = 100; // leadctl's page size with --all

const log = (text) => process.stderr.write(`bench: ${text}\n`);
const started = Date.now();
const sandbox = await bundleSandbox();
const rows = [];
try {
  if (only.has('startup')) log(`start-up and one page, ${int('runs')} interleaved rounds…`);
  if (only.has('startup')) rows.push(...(await startupAndOnePage(sandbox.file, { runs: int('runs') })));
  if (only.has('export')) log(`export of ${int('leads')} leads at ${int('latency')} ms per request…`);
  if (only.has('export'))
    rows.push(
      ...(await exportAtLatency(sandbox.file, {
        leads: int('leads'),
        latencyMs: int('latency'),
        concurrency: int('concurrency'),
        runs: int('export-runs'),
        baselineRuns: int('baseline-runs'),
      })),
    );
  if (only.has('checkpoint')) log(`checkpoint run: 250 new leads on top of ${int('leads')}…`);
  if (only.has('checkpoint'))
    rows.push(
      ...(await incrementalExport(sandbox.file, {
        leads: int('leads'),
        added: 250,
        latencyMs: int('latency'),
        runs: int('export-runs'),
      })),
    );
  if (only.has('memory'))
    log(`peak memory at ${int('leads')} vs ${int('big-leads')} vs ${int('huge-leads')} leads…`);
  if (only.has('memory'))
    rows.push(
      ...(await memoryBySize(sandbox.file, {
        sizes: [int('leads'), int('big-leads'), int('huge-leads')],
        runs: int('memory-runs'),
      })),
    );
  if (only.has('table')) log(`table against csv, ${int('table-leads')} leads…`);
  if (only.has('table'))
    rows.push(
      ...(await tableAgainstCsv(sandbox.file, { leads: int('table-leads'), runs: int('export-runs') })),
    );
  if (only.has('xlsx')) log(`xlsx against csv, ${int('xlsx-leads')} leads…`);
  if (only.has('xlsx'))
    rows.push(
      ...(await xlsxAgainstCsv(sandbox.file, { leads: int('xlsx-leads'), runs: int('memory-runs') })),
    );
  if (only.has('sync')) log(`sync of ${int('sync-leads')} leads against a minimal fetch + insert script…`);
  if (only.has('sync'))
    rows.push(
      ...(await syncAgainstMinimal(sandbox.file, { leads: int('sync-leads'), runs: int('memory-runs') })),
    );
} finally {
  sandbox.remove();
}

const notes = judge(rows, { pageSize: PAGE_SIZE });
judgeSync(rows, notes);
const missed = [...notes.values()].filter((note) => note.ok === false);
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const footnotes = [
  `Machine: ${machine()}.`,
  `Command: \`${command}\` (${((Date.now() - started) / 1000).toFixed(0)} s). CPU and peak RSS: ${usageSource}; wall: measured around the child process.`,
  `Export bound = ceil(leads / ${PAGE_SIZE}) pages x latency / concurrency. Rows out include the header line.`,
  jqAvailable()
    ? 'jq and curl are installed: the shell-loop baseline ran (it stops at the first empty page, one extra request).'
    : 'jq or curl is not installed: the shell-loop baseline was skipped.',
  hasGnuTime ? '' : 'GNU time is missing: the shell-loop baseline has no CPU or memory figures.',
].filter(Boolean);
const output = `${table(rows, notes)}\n\n${footnotes.map((line) => `- ${line}`).join('\n')}\n`;
process.stdout.write(
  `\n${output}\n${missed.length ? `goals missed: ${missed.map((n) => n.label).join(', ')}` : 'all goals met'}\n`,
);

if (opts.record) {
  const date = new Date().toISOString().slice(0, 10);
  writeFileSync(
    new URL('RESULTS.md', import.meta.url),
    `# Benchmark results\n\nRecorded ${date} by \`${command}\`; see bench/run.mjs for what each row runs.\n\n${output}`,
  );
  log('wrote bench/RESULTS.md');
}
