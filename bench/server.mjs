// One sandbox API server in its own process, so that its CPU and memory are never counted as the
// client's. Started by sandbox.mjs with fork(); argv: <bundled sandbox module> <leads> <latency ms>.
// It answers IPC messages: { type: 'requests' } -> { requests, spanMs } (and resets both).
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
// The paging span: from the first request's arrival to the last answer, as the server saw them. The
// hook runs as an answer leaves, which the sandbox sends `latencyMs` after the request arrived.
let firstArrivalMs;
let lastAnswerMs;
sandbox.onRequest(() => {
  const now = performance.now();
  requests += 1;
  firstArrivalMs ??= now - Number(latencyMs);
  lastAnswerMs = now;
});
process.on('message', (message) => {
  if (message?.type === 'requests') {
    const spanMs = firstArrivalMs === undefined ? undefined : lastAnswerMs - firstArrivalMs;
    process.send({ type: 'requests', requests, spanMs });
    requests = 0;
    firstArrivalMs = undefined;
  }
});
process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
process.send({ type: 'ready', url: sandbox.url, apiKey: sandbox.apiKey });
