#!/usr/bin/env -S node --liftoff-only
// Tiny launcher: start-up settings, then hand over to dist/ (one bundle, see scripts/build.mjs).
// --liftoff-only (in the line above, where Node reads it at start; docs/performance.md has the figures)
// keeps V8 from recompiling undici's WebAssembly HTTP parser with TurboFan after the first response, a
// compile Node waits for before it exits. `env -S` splits the line (GNU coreutils 8.30+, macOS, the BSDs;
// npm's cmd-shim on Windows reads it too); BusyBox and toybox env lack -S: there run
// `node --liftoff-only <path to this file>`, or plain `node <path>` without the flag.
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
const { main } = await import('../dist/cli.js');
process.exitCode = await main(args);
