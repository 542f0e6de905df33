// What the built CLI loads, which is most of what start-up costs (bench/RESULTS.md): Node's built-in
// modules and our own chunks, recorded by a preload script as the process exits. Guards the build's
// stand-ins (scripts/build-plugins.mjs) and the lazy imports against a dependency or a change of ours
// pulling something heavy back in.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, runBinary, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
let home: string;
let preload: string;

const RECORDER = `
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule '))
    .map((entry) => entry.slice('NativeModule '.length));
  writeFileSync(process.env.LEADCTL_TEST_LOADED, JSON.stringify(builtins));
});
`;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 30, seed: 3 });
  home = await tempConfigHome();
  preload = join(home, 'record-modules.cjs');
  writeFileSync(preload, RECORDER);
});
afterAll(() => sandbox.close());

async function loadedBy(args: string[]): Promise<string[]> {
  const record = join(home, `loaded-${args.join('-').replace(/\W+/g, '_')}.json`);
  const { exitCode, stderr } = await runBinary(args, {
    env: {
      XDG_CONFIG_HOME: home,
      LEADCTL_BASE_URL: sandbox.url,
      LEADCTL_API_KEY: sandbox.apiKey,
      NODE_OPTIONS: `--require ${preload}`,
      LEADCTL_TEST_LOADED: record,
    },
  });
  expect(stderr).not.toContain('Error:');
  expect(exitCode).toBe(0);
  return JSON.parse(readFileSync(record, 'utf8')) as string[];
}

describe('modules loaded at start-up', () => {
  it('a one-page request loads no HTTP/2, TLS, crypto or child processes', async () => {
    const loaded = await loadedBy(['leads', '--json']);
    expect(loaded).toContain('net'); // the recorder works: a request needs sockets
    // zlib and Node's own undici: what an ESM import of node:http costs on Node 22 and later.
    const heavies = [
      'http2',
      'tls',
      'crypto',
      'zlib',
      'internal/deps/undici/undici',
      'child_process',
      'perf_hooks',
    ];
    for (const heavy of heavies) {
      expect(loaded, heavy).not.toContain(heavy);
    }
  });

  it('--help loads no HTTP client and no child processes', async () => {
    const loaded = await loadedBy(['leads', '--help']);
    expect(loaded).toContain('stream'); // the recorder works: stdout is a pipe here
    // (net itself may load: Node makes a piped stdout a net.Socket.)
    for (const heavy of ['http', 'http2', 'tls', 'child_process', 'v8']) {
      expect(loaded, heavy).not.toContain(heavy);
    }
  });
});

/** dist/cli.js and every chunk it imports statically: what every run loads before a command's action. */
function staticChunks(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const [, spec] of text.matchAll(/^(?:import|\} from|import \{[^}]*\} from) ?"(\.[^"]+)";$/gm)) {
    staticChunks(resolve(dirname(entry), spec as string), seen);
  }
  return seen;
}

describe('what every run loads before its action', () => {
  it.each([
    ['zod', '$ZodType'],
    ['undici', 'llhttp'],
    ['ora', 'dots12'],
    ['conf (ajv)', 'ajv'],
    ['exceljs', 'WorkbookWriter'],
    ['tldts (the public-suffix list)', 'getPublicSuffix'],
    ['pg (PostgreSQL)', 'SCRAM-SERVER-FIRST-MESSAGE'],
  ])('holds no %s: --help and --version never need it', (_, marker) => {
    const chunks = [...staticChunks(join(dirname(BIN), '../dist/cli.js'))];
    expect(chunks.length).toBeGreaterThan(3); // the walk follows the chunks' own imports
    expect(chunks.filter((file) => readFileSync(file, 'utf8').includes(marker))).toEqual([]);
  });
});
