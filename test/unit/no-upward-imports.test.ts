// The house rule: lower layers (api, output, config, ui, text) and the MCP face never import from
// commands/; what they share with the commands lives below both (src/session.ts, ui/ui.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const LOWER = ['api', 'output', 'config', 'ui', 'text', 'mcp'];

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
