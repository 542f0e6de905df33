// `leadctl mcp` start: initialize + tools/list, then stdin closed, as a host starts a server. CPU
// (user + system) of the child over bare `node -e 0`, in interleaved pairs, from process.resourceUsage()
// at exit (a --require preload: microseconds, where GNU time rounds to 10 ms). CPU, not wall time: the
// machine may be shared. Several builds side by side give their costs in the same conditions.
//   node bench/mcp-start.mjs [--node PATH] [--runs N] [ROOT ...]   (ROOT: a checkout with dist/ built)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { node: { type: 'string', default: process.execPath }, runs: { type: 'string', default: '20' } },
  allowPositionals: true,
});
const roots = (positionals.length > 0 ? positionals : ['.']).map((root) => resolve(root));
const scratch = mkdtempSync(join(tmpdir(), 'leadctl-mcp-start-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const preload = join(scratch, 'cpu.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.CPU_FILE, String((u.userCPUTime + u.systemCPUTime) / 1000)); });",
);
const HOST = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

let run = 0;
/** CPU ms of one process; with `mcp`, it is a host's start: initialize, tools/list, then stdin closed. */
function cpuOf(args, mcp) {
  const file = join(scratch, `cpu-${++run}`);
  const env = {
    PATH: process.env.PATH,
    HOME: scratch,
    CPU_FILE: file,
    XDG_CONFIG_HOME: scratch,
    XDG_STATE_HOME: scratch,
    LEADCTL_BASE_URL: 'http://127.0.0.1:9',
    LEADCTL_API_KEY: 'lk_test_bench_0123456789',
  };
  return new Promise((done, fail) => {
    const child = spawn(values.node, ['--require', preload, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('"id":2')) child.stdin.end();
    });
    if (mcp) child.stdin.write(HOST);
    else child.stdin.end();
    child.on('close', () => {
      if (mcp && !out.includes('"tools"')) fail(new Error(`no tools/list answer: ${out.slice(0, 300)}`));
      else done(Number(readFileSync(file, 'utf8')));
    });
  });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const bare = [];
const over = roots.map(() => []);
for (let i = 0; i < Number(values.runs); i++) {
  const base = await cpuOf(['-e', '0'], false);
  bare.push(base);
  for (const [n, root] of roots.entries())
    over[n]?.push((await cpuOf([join(root, 'bin/leadctl.cjs'), 'mcp'], true)) - base);
}
console.log(`${values.node} (${values.runs} rounds): node -e 0 ${median(bare).toFixed(1)} ms CPU`);
for (const [n, root] of roots.entries()) {
  const list = over[n] ?? [];
  console.log(
    `  ${root}: leadctl mcp start +${median(list).toFixed(1)} ms CPU over it (range ${Math.min(...list).toFixed(0)}..${Math.max(...list).toFixed(0)})`,
  );
}
