// Two or more builds side by side, each started as installed (by its own launcher and shebang):
// bare Node, then each build's --version, leads --help, one page of leads --json and (with --export)
// a 20,000-lead export, interleaved round by round so that the machine's load falls on all alike.
// Prints medians of wall ms. For a change that may cost start-up time: build the commit before it in
// a worktree, then
//   node bench/compare-builds.mjs before=../before/bin/leadctl.cjs now=bin/leadctl.cjs [--rounds 31] [--export]
// (a build older than the CommonJS launcher starts from bin/leadctl.js).
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { bundleSandbox, startServer } from './sandbox.mjs';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '21' }, export: { type: 'boolean', default: false } },
});
const builds = positionals.map((pair) => {
  const [name, bin] = pair.split('=');
  return { name, bin };
});
const rounds = Number(opts.rounds);
if (builds.length < 2 || builds.some((build) => !build.name || !build.bin) || !(rounds >= 1)) {
  console.error('usage: node bench/compare-builds.mjs a=BIN b=BIN [...] [--rounds N] [--export]');
  process.exit(2);
}

const cases = {
  '--version': ['--version'],
  'leads --help': ['leads', '--help'],
  'leads --json (one page of 25)': ['leads', '--json'],
  ...(opts.export ? { 'leads --all --csv (20,000 leads)': ['leads', '--all', '--csv', '-q'] } : {}),
};

const sandbox = await bundleSandbox();
const server = await startServer(sandbox.file, { leads: 20_000, latencyMs: 0 });
const env = { ...process.env, LEADCTL_BASE_URL: server.url, LEADCTL_API_KEY: server.apiKey };
const times = new Map();
function timed(key, command, args) {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`${key}: exit ${run.status}: ${run.stderr}`);
  times.set(key, [...(times.get(key) ?? []), Number(process.hrtime.bigint() - start) / 1e6]);
}
try {
  for (let round = 0; round < rounds; round++) {
    timed('node', process.execPath, ['-e', '0']);
    for (const [label, args] of Object.entries(cases))
      for (const { name, bin } of builds) timed(`${label}|${name}`, bin, args);
  }
} finally {
  await server.close();
  sandbox.remove();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const node = median(times.get('node'));
console.log(`Node ${process.version}, ${rounds} interleaved rounds, medians of wall ms`);
console.log(`| case | ${builds.map((build) => build.name).join(' | ')} |`);
console.log(`|---|${builds.map(() => '---:').join('|')}|`);
console.log(
  `| node -e 0 | ${node.toFixed(0)} |${builds
    .slice(1)
    .map(() => ' |')
    .join('')}`,
);
for (const label of Object.keys(cases)) {
  const cells = builds.map(({ name }) => median(times.get(`${label}|${name}`)).toFixed(0));
  console.log(`| ${label} | ${cells.join(' | ')} |`);
}
