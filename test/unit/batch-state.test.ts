import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openFileOutput } from '../../src/batch/append-output.js';
import {
  type BatchState,
  loadState,
  removeState,
  saveState,
  shapeDifferences,
} from '../../src/batch/state.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leadctl-batch-'));
});

const shape = { format: 'csv', fields: null, header: true, sanitize: true, unique: false };
const state: BatchState = {
  version: 1,
  input: 'abc',
  total: 3,
  output: shape,
  done: 1,
  bytes: 42,
  results: 20,
  searched: 1,
  failed: [],
  seen: ['p1'],
};

describe('state file', () => {
  it('round-trips and leaves no temporary file behind', async () => {
    const file = join(dir, 'out.csv.state');
    await saveState(file, state);
    expect(await loadState(file)).toEqual(state);
    expect(await readdir(dir)).toEqual(['out.csv.state']);
    await removeState(file);
    expect(await loadState(file)).toBeUndefined();
  });

  it('refuses a file that is not a state file rather than guessing', async () => {
    const file = join(dir, 'x.state');
    await writeFile(file, '{"hello": 1}');
    await expect(loadState(file)).rejects.toThrow(/is not a batch state file/);
    await writeFile(file, 'not json');
    await expect(loadState(file)).rejects.toThrow(/is not a batch state file/);
  });

  it('names the output options that differ, as the stopped run had them', () => {
    expect(shapeDifferences(shape, shape)).toEqual([]);
    expect(shapeDifferences(shape, { ...shape, format: 'json', unique: true, fields: ['name'] })).toEqual([
      '--format csv',
      'no --fields',
      'no --unique',
    ]);
  });
});

describe('openFileOutput', () => {
  it('writes FILE.partial, counts bytes (not characters) and renames on commit', async () => {
    const file = join(dir, 'out.csv');
    const output = await openFileOutput(file);
    await output.write('café,');
    await output.write('ok\n');
    expect(output.bytes).toBe(9);
    expect(await readFile(`${file}.partial`, 'utf8')).toBe('café,ok\n');
    await output.commit();
    expect(await readFile(file, 'utf8')).toBe('café,ok\n');
    expect(await readdir(dir)).toEqual(['out.csv']);
  });

  it('on resume cuts the .partial back to the recorded length, then appends', async () => {
    const file = join(dir, 'out.json');
    await writeFile(`${file}.partial`, '[\n{"a":1},\n{"a":2}\n]\n{"half');
    const output = await openFileOutput(file, 18);
    expect(output.bytes).toBe(18);
    await output.write(',\n{"a":3}');
    await output.abandon();
    expect(await readFile(`${file}.partial`, 'utf8')).toBe('[\n{"a":1},\n{"a":2},\n{"a":3}');
  });

  it('refuses to resume when the .partial is missing or shorter than recorded', async () => {
    const file = join(dir, 'out.csv');
    await expect(openFileOutput(file, 10)).rejects.toThrow(/is missing/);
    await writeFile(`${file}.partial`, 'abc');
    await expect(openFileOutput(file, 10)).rejects.toThrow(/shorter than the stopped run left it/);
  });
});
