// One sandbox API server in its own process, so that its CPU and memory are never counted as the
// client's. Started by sandbox.mjs with fork(); argv: <bundled sandbox module> <leads> <latency ms>.
// It answers IPC messages: { type: 'requests' } -> { requests } (and resets the count).
import { pathToFileURL } from 'node:url';

const [modulePath, leads, latencyMs] = process.argv.slice(2);
const { startSandbox } = await import(pathToFileURL(modulePath).href);
const sandbox = await startSandbox({
  host: '127.0.0.1',
  port: 0,
  leads: Number(leads),
  latencyMs: Number(latencyMs),
  seed: 1,
  // A full bench run spends ~10,000 requests: more than any plan's daily allowance.
  dailyLimit: 1_000_000_000,
  // The request log would grow with every page of every run.
  recordRequests: false,
});
let requests = 0;
sandbox.onRequest(() => {
  requests += 1;
});
process.on('message', (message) => {
  if (message?.type === 'requests') {
    process.send({ type: 'requests', requests });
    requests = 0;
  }
});
process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
process.send({ type: 'ready', url: sandbox.url, apiKey: sandbox.apiKey });
