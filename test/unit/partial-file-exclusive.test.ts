// cli.md: the partial file is created exclusively, under a name no concurrent run shares. A file that
// already sits at the drawn name (another run's partial) is never opened: a new name is drawn.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const draws = vi.hoisted(() => ({ next: [] as string[] }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return {
    ...actual,
    randomBytes: (size: number) => {
      const hex = draws.next.shift();
      return hex === undefined ? actual.randomBytes(size) : Buffer.from(hex, 'hex');
    },
  };
});

afterEach(() => {
  draws.next = [];
});

it("draws another name rather than open another run's partial file", async () => {
  const { createPartialFile } = await import('../../src/output/destination.js');
  const dir = tempDir('partial-excl');
  const target = join(dir, 'leads.csv');
  const taken = `${target}.aaaaaaaa.partial`;
  writeFileSync(taken, "another run's rows\n");
  draws.next = ['aaaaaaaa', 'bbbbbbbb'];
  const partial = await createPartialFile(target, undefined);
  await partial.handle.write('ours\n');
  await partial.handle.close();
  expect(partial.path).toBe(`${target}.bbbbbbbb.partial`);
  expect(readFileSync(taken, 'utf8')).toBe("another run's rows\n");
  expect(readdirSync(dir).sort()).toEqual(['leads.csv.aaaaaaaa.partial', 'leads.csv.bbbbbbbb.partial']);
});
