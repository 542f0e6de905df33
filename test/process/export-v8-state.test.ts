// A long export keeps memory bounded by its design, not by changing V8 at run time: no --expose-gc,
// no forced collections, no flag set once Node runs (docs/performance.md, "Memory" and "Start-up").
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const open: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

// Loaded before the CLI: records every V8 flag the process sets, and at exit whether a fresh context
// sees a gc function (what --expose-gc gives).
const RECORDER = `
const v8 = require('node:v8');
const vm = require('node:vm');
const { syncBuiltinESMExports } = require('node:module');
const flags = [];
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (text) => { flags.push(text); return original(text); };
syncBuiltinESMExports();
process.on('exit', () => {
  const gcExposed = vm.runInNewContext('typeof gc') === 'function';
  require('node:fs').writeFileSync(process.env.V8_STATE_FILE, JSON.stringify({ flags, gcExposed, execArgv: process.execArgv }));
});
`;

it('writes 10,100 leads without exposing gc or turning on any V8 flag at run time', async () => {
  const sandbox = await startSandbox({ leads: 10_100 });
  open.push(sandbox);
  const dir = tempDir('v8-state');
  const recorder = join(dir, 'recorder.cjs');
  const stateFile = join(dir, 'state.json');
  writeFileSync(recorder, RECORDER);
  const run = await execa(
    'node',
    [
      '--require',
      recorder,
      BIN,
      'leads',
      '--all',
      '--csv',
      '--base-url',
      sandbox.url,
      '--api-key',
      sandbox.apiKey,
    ],
    { reject: false, extendEnv: false, env: cleanEnv({ V8_STATE_FILE: stateFile }) },
  );
  expect(run.exitCode).toBe(0);
  expect(run.stdout.split('\n').length).toBe(1 + 10_100);
  expect(run.stderr).toMatch(/Wrote 10,100 leads/);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { flags: string[]; gcExposed: boolean };
  // 10,000 rows is where the CLI used to turn on --expose-gc and force a full collection.
  expect(state.flags).not.toContain('--expose-gc');
  expect(state.gcExposed).toBe(false);
  expect(state.flags).toEqual([]);
});

it('starts as the installed command starts (the kernel reads the shebang) with no V8 flag, then or later', async () => {
  const sandbox = await startSandbox({ leads: 30 });
  open.push(sandbox);
  const dir = tempDir('v8-shebang');
  const recorder = join(dir, 'recorder.cjs');
  const stateFile = join(dir, 'state.json');
  writeFileSync(recorder, RECORDER);
  const run = await execa(BIN, ['leads', '--json', '--base-url', sandbox.url, '--api-key', sandbox.apiKey], {
    reject: false,
    extendEnv: false,
    env: cleanEnv({ V8_STATE_FILE: stateFile, NODE_OPTIONS: `--require ${recorder}` }),
  });
  expect(run.exitCode).toBe(0);
  expect(JSON.parse(run.stdout)).toHaveLength(25);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as { flags: string[]; execArgv: string[] };
  expect(state.execArgv).toEqual([]);
  expect(state.flags).toEqual([]);
});
