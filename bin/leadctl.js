#!/usr/bin/env node
// Tiny launcher: start-up settings, then hand over to dist/ (one bundle, see scripts/build.mjs).
import module from 'node:module';

// Node 22+ caches compiled code between runs, in a cache Node itself checks; Node 20 has none.
module.enableCompileCache?.();

const args = process.argv.slice(2);

// Scripts call `leadctl --version` to check what is installed: this is the one place that answers it
// without loading dist/, with a plain write before Node sets up a stream for stdout. (A program that
// calls dist/cli.js main() itself gets the same answer from commander's --version.)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync, writeSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  try {
    writeSync(1, `${version}\n`);
  } catch (error) {
    // A closed pipe (EPIPE) is the reader's choice; a full disk or an I/O error is worth saying.
    if (error?.code !== 'EPIPE') {
      const reason = { ENOSPC: 'no space left on device', EIO: 'input/output error' }[error?.code];
      process.stderr.write(`leadctl: cannot write standard output: ${reason ?? error?.code ?? error}\n`);
      process.exit(1);
    }
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
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
}

const { main } = await import('../dist/cli.js');
process.exitCode = await main(args);
