#!/usr/bin/env node
// Tiny launcher: Node's compile cache, a bare --version answered with one write, then dist/cli.js
// (one bundle, see scripts/build.mjs). CommonJS on purpose: an ES module entry makes Node 20 load
// and compile its ES module loader (fs/promises, readline and a dozen more) before the first line
// runs, 12-14 ms of every start; require() of dist/cli.js needs only the loader's synchronous part.
// No V8 flag is set, here or later: docs/performance.md ("Start-up") says what that costs on Node 20.
'use strict';

// Node 22+ caches compiled code between runs, in a cache Node itself checks; Node 20 has none.
require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);

// Scripts call `leadctl --version` to check what is installed: this is the one place that answers it
// without loading dist/, with a plain write before Node sets up a stream for stdout. (A program that
// calls dist/cli.js main() itself gets the same answer from commander's --version.)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync, writeSync } = require('node:fs');
  const { version } = JSON.parse(
    readFileSync(require('node:path').join(__dirname, '../package.json'), 'utf8'),
  );
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

// require() of an ES module: Node 20.19+ and 22.12+. Node 22.0-22.11 refuse it (ERR_REQUIRE_ESM)
// and get the same module through import().
function loadCli() {
  try {
    return Promise.resolve(require('../dist/cli.js'));
  } catch (error) {
    if (error?.code !== 'ERR_REQUIRE_ESM') throw error;
    return import('../dist/cli.js');
  }
}

loadCli()
  .then(({ main }) => main(args))
  .then((code) => {
    process.exitCode = code;
  });
