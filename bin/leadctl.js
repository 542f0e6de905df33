#!/usr/bin/env node
// Tiny launcher: enable the compile cache where this Node has one, then hand over to dist/.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
