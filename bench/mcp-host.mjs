// A host starting an MCP server, as small as one can be: spawns `NODE ARGS...`, sends initialize and
// tools/list, closes stdin at the answer, waits for the exit. Run under bench/measure.mjs, its CPU
// includes the child's; beside the same host around `node -e 0`, the difference is the server's own.
import { spawn } from 'node:child_process';

const [node, ...args] = process.argv.slice(2);
const host = [
  {
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { method: 'notifications/initialized' },
  { id: 2, method: 'tools/list' },
];
const child = spawn(node, args, { stdio: ['pipe', 'pipe', 'ignore'] });
let out = '';
child.stdout.on('data', (chunk) => {
  out += chunk;
  if (out.includes('"id":2')) child.stdin.end();
});
child.stdin.on('error', () => {});
const isMcp = args.includes('mcp');
if (isMcp) child.stdin.write(host.map((m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`).join(''));
else child.stdin.end();
child.on('close', (code) => {
  if (isMcp && !out.includes('"tools"')) {
    process.stderr.write(`no tools/list answer: ${out.slice(0, 300)}\n`);
    process.exitCode = 1;
  } else process.exitCode = code ?? 1;
});
