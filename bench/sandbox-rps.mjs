#!/usr/bin/env node
// Requests per second the sandbox serves on loopback: spawns `leadctl sandbox --port 0` (needs
// `npm run build`), reads LEADCTL_BASE_URL/LEADCTL_API_KEY from its stdout, then fires keep-alive
// GET /api/v1/leads requests with undici at a fixed concurrency and reports the rate and any errors.
//
// usage: node bench/sandbox-rps.mjs [--requests 20000] [--concurrency 16] [--limit 25] [-- <sandbox flags>]

import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: {
    requests: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '16' },
    limit: { type: 'string', default: '25' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const limit = Number(values.limit);
const bin = fileURLToPath(new URL('../bin/leadctl.cjs', import.meta.url));

// The default agency key allows 10,000 requests a day: lift that when the command lets us.
const help = execFileSync(process.execPath, [bin, 'sandbox', '--help'], { encoding: 'utf8' });
const lift = help.includes('--daily-limit') ? ['--daily-limit', String(total * 10)] : [];
const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', ...lift, ...extra], {
  stdio: ['ignore', 'pipe', 'pipe'],
});

const env = await new Promise((resolve, reject) => {
  let out = '';
  child.once('exit', (code) => reject(new Error(`sandbox exited early with code ${code}`)));
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const found = Object.fromEntries(
      out
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => line.split('=')),
    );
    if (found.LEADCTL_BASE_URL && found.LEADCTL_API_KEY) resolve(found);
  });
});

const agent = new Agent({ connections: concurrency, pipelining: 1 });
const headers = { authorization: `Bearer ${env.LEADCTL_API_KEY}` };
const statuses = new Map();
let next = 0;
const pages = Math.max(1, Math.floor(300 / limit));

async function worker() {
  while (next < total) {
    const page = 1 + (next++ % pages);
    try {
      const response = await request(`${env.LEADCTL_BASE_URL}/api/v1/leads?page=${page}&limit=${limit}`, {
        dispatcher: agent,
        headers,
      });
      await response.body.dump();
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    } catch {
      statuses.set('network', (statuses.get('network') ?? 0) + 1);
    }
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
await agent.close();
child.kill('SIGTERM');

const ok = statuses.get(200) ?? 0;
const result = {
  requests: total,
  concurrency,
  limit,
  seconds: Number(seconds.toFixed(2)),
  requestsPerSecond: Math.round(total / seconds),
  statuses: Object.fromEntries(statuses),
  // Network failures plus any answer that is neither 200 nor 429.
  errors: total - ok - (statuses.get(429) ?? 0),
  rateLimited: statuses.get(429) ?? 0,
};
console.log(JSON.stringify(result));
if (result.rateLimited > 0) {
  console.error(
    `note: ${result.rateLimited} answers were 429 (the key's daily limit); they are counted in the rate.`,
  );
}
process.exitCode = result.errors === 0 ? 0 : 1;
