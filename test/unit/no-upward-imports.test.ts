// The house rule: everything below the commands (the layers, the MCP face, and the root files
// session.ts and global-options.ts that the commands' context is typed from) imports nothing from
// commands/, not even a type; what they share with the commands lives below both.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const LOWER = [
  'api',
  'output',
  'config',
  'ui',
  'text',
  'usage',
  'checkpoint',
  'batch',
  'sync',
  'sandbox',
  'mcp',
];
const BELOW_AT_ROOT = [
  'session.ts',
  'global-options.ts',
  'resources.ts',
  'version.ts',
  'index.ts',
  'lock.ts',
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

it.each(LOWER)('src/%s/ imports nothing from commands/', (layer) => {
  const upward = sourceFiles(join(SRC, layer)).filter((file) =>
    /from '(?:\.\.\/)+commands\//.test(readFileSync(file, 'utf8')),
  );
  expect(upward.map((file) => relative(SRC, file))).toEqual([]);
});

it.each(BELOW_AT_ROOT)('src/%s imports nothing from commands/', (file) => {
  expect(readFileSync(join(SRC, file), 'utf8')).not.toMatch(/from '\.\/commands\//);
});
