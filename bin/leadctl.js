#!/usr/bin/env node
// Tiny launcher: start-up settings, then hand over to dist/ (one bundle, see scripts/build.mjs).
import module from 'node:module';

// Node 22+ caches compiled code between runs; Node 20 has no compile cache.
module.enableCompileCache?.();

const args = process.argv.slice(2);

// Scripts call `leadctl --version` to check what is installed: answer it here, before loading dist/,
// and with a plain write, before Node sets up a stream for stdout (dist/cli.js answers it the same way
// for a program that calls main() itself).
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync, writeSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  try {
    writeSync(1, `${version}\n`);
  } catch {
    // stdout closed by its reader (EPIPE): nothing more to say.
  }
  process.exit(0);
}
const printsOnly =
  args.some((arg) => ['--version', '-V', '--help', '-h'].includes(arg)) || args[0] === 'help';
if (!printsOnly) {
  // undici parses HTTP with a WebAssembly module. V8 compiles it quickly (Liftoff), then again,
  // optimised, on a background thread, and Node waits for that compile before it exits: 200-600 ms
  // added to every short run on a busy machine. The baseline code parses our responses fast enough.
  // (Skipped for --version and --help, which never connect: loading node:v8 costs ~5 ms.)
  // --expose-gc: an export reaches for a full collection now and then (dist's heap.ts sets the flag
  // then too); V8 refuses a code cache made under other flags, so set it before undici is compiled,
  // and the cache written at the end of one run fits the next (src/startup/code-cache.ts).
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--expose-gc');
}

const { main } = await import('../dist/cli.js');
process.exitCode = await main(args);
