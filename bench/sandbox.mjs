// Starts sandbox servers (server.mjs) in child processes. The sandbox is TypeScript inside src/ and
// only reachable through the CLI's chunks, so it is bundled once per bench run with esbuild.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** How the bench bundles TypeScript from src/ for Node (the sandbox here, the hot path in rows.mjs). */
export const NODE_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
};

export async function bundleSandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'leadctl-bench-'));
  const file = join(dir, 'sandbox.mjs');
  await build({
    entryPoints: [join(root, 'src/sandbox/index.ts')],
    outfile: file,
    ...NODE_BUNDLE,
  });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A server on 127.0.0.1 with `leads` saved leads and `latencyMs` added to every request. */
export function startServer(bundleFile, { leads, latencyMs }) {
  const child = fork(join(root, 'bench/server.mjs'), [bundleFile, String(leads), String(latencyMs)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const nextMessage = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message?.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      };
      const onExit = (code) => reject(new Error(`bench server exited (${code}) before "${type}"`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return nextMessage('ready').then(({ url, apiKey }) => ({
    url,
    apiKey,
    /** Requests answered since the last call, and the span from the first arrival to the last answer. */
    takeRequests: async () => {
      const answer = nextMessage('requests');
      child.send({ type: 'requests' });
      const { requests, spanMs } = await answer;
      return { requests, spanMs };
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.disconnect();
      }),
  }));
}
