import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type BatchState,
  checkStateAgreement,
  loadState,
  removeState,
  saveState,
  shapeDifferences,
} from '../../src/batch/state.js';
import { holdStateFile } from '../../src/checkpoint/checkpoint-file.js';
import { openOutput } from '../../src/output/destination.js';
import { tempDir } from '../helpers/temp.js';

const shape = { format: 'csv' as const, fields: null, header: true, sanitize: true, unique: true };
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const state: BatchState = {
  version: 4,
  input: sha('input'),
  total: 3,
  output: shape,
  partial: 'out.csv.0123abcd.partial',
  done: 1,
  bytes: 42,
  sha256: sha('x'),
  results: 20,
  searched: 1,
  sent: 2,
  failed: [],
  unknown: [{ index: 1, line: 3, query: 'roofer', location: 'Waco' }],
  answers: [],
  seen: ['p1'],
};

describe('state file', () => {
  it('round-trips through its held file and leaves no temporary file behind', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.csv.state');
    const held = await holdStateFile(file, 'batch state');
    await saveState(held, state);
    expect(await loadState(file)).toEqual(state);
    await removeState(held);
    held.release();
    expect(await readdir(dir)).toEqual([]);
    expect(await loadState(file)).toBeUndefined();
  });

  it('is written through a symlink: the link stays and its target holds the state', async () => {
    const dir = tempDir();
    const real = join(dir, 'real.state');
    const file = join(dir, 'out.csv.state');
    await symlink(real, file);
    const held = await holdStateFile(file, 'batch state');
    await saveState(held, state);
    held.release();
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8'))).toEqual(state);
  });

  it('is held by one run: a second hold names the holder and fails with exit 2', async () => {
    const file = join(tempDir(), 'out.csv.state');
    const held = await holdStateFile(file, 'batch state');
    const second = holdStateFile(file, 'batch state');
    await expect(second).rejects.toThrow(`in use by another leadctl run (pid ${process.pid}, started `);
    await expect(second).rejects.toMatchObject({ exitCode: 2 });
    held.release();
    (await holdStateFile(file, 'batch state')).release();
  });

  it('reads a version 2 state of an older leadctl: every finished search counted as sent', async () => {
    const file = join(tempDir(), 'x.state');
    const { sent: _sent, unknown: _unknown, answers: _answers, ...old } = { ...state, unknown: [] };
    await writeFile(file, JSON.stringify({ ...old, version: 2 }));
    expect(await loadState(file)).toEqual({ ...state, sent: 1, unknown: [] });
  });

  it('reads a version 3 state of an older leadctl: no answers kept', async () => {
    const file = join(tempDir(), 'x.state');
    const { answers: _answers, ...old } = state;
    await writeFile(file, JSON.stringify({ ...old, version: 3 }));
    expect(await loadState(file)).toEqual(state);
  });

  it.each([
    ['not JSON', 'not json', /it is not valid JSON/],
    ['another version', '{"version": 1}', /another version of leadctl \(state version 1\)/],
    ['a wrong type', JSON.stringify({ ...state, done: '1' }), /: done: expected a number$/],
    ['a negative count', JSON.stringify({ ...state, bytes: -1 }), /: bytes: expected 0 or more$/],
    ['a fraction', JSON.stringify({ ...state, results: 1.5 }), /: results: expected a whole number$/],
    [
      'a bad format',
      JSON.stringify({ ...state, output: { ...shape, format: 'xml' } }),
      /output\.format: expected "table" or/,
    ],
    [
      'a partial elsewhere',
      JSON.stringify({ ...state, partial: '../x.1234abcd.partial' }),
      /partial: is not in the expected form/,
    ],
    ['an unknown key', JSON.stringify({ ...state, extra: 1 }), /unknown key "extra"/],
  ])('refuses %s, saying where and what (exit 2)', async (_name, text, message) => {
    const file = join(tempDir(), 'x.state');
    await writeFile(file, text);
    const loading = loadState(file);
    await expect(loading).rejects.toThrow(message);
    await expect(loading).rejects.toMatchObject({ exitCode: 2 });
  });

  it.each([
    ['done beyond total', { done: 4 }, /done \(4\) is more than total \(3\)/],
    ['counts that do not add up', { searched: 0 }, /do not add up to done/],
    ['seen without --unique', { output: { ...shape, unique: false } }, /not --unique/],
    ['more seen than results', { results: 0, seen: ['a'] }, /more than the 0 results/],
    ['results with no bytes', { bytes: 0 }, /bytes is 0/],
    ['fewer sent than answered and unknown', { sent: 1 }, /sent \(1\) is less than/],
    [
      'an unknown search beyond total',
      { unknown: [{ index: 3, line: 9, query: 'q', location: 'l' }] },
      /beyond total/,
    ],
    [
      'an answer kept for a search done',
      { sent: 3, answers: [{ index: 0, results: '[]' }] },
      /answers lists/,
    ],
    [
      'an answer kept for an unknown search',
      { sent: 3, answers: [{ index: 1, results: '[]' }] },
      /answers lists/,
    ],
    ['an answer that is not a list', { sent: 3, answers: [{ index: 2, results: '{}' }] }, /not a JSON array/],
  ])('refuses a state whose numbers disagree: %s', (_name, change, message) => {
    expect(() => checkStateAgreement('x.state', { ...state, ...change } as BatchState)).toThrow(message);
  });

  it('names the output options that differ, as the stopped run had them', () => {
    const plain = { ...shape, unique: false };
    expect(shapeDifferences(plain, plain)).toEqual([]);
    expect(shapeDifferences(plain, { ...plain, format: 'json', unique: true, fields: ['name'] })).toEqual([
      '--format csv',
      'no --fields',
      'no --unique',
    ]);
  });
});

describe('batch output files', () => {
  it('writes a partial file, counts and hashes bytes (not characters) and renames on commit', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.csv');
    const output = await openOutput({ file, stdout: process.stdout, hash: true });
    await output.write('café,');
    await output.write('ok\n');
    expect(output.bytes).toBe(9);
    expect(output.digest()).toBe(sha('café,ok\n'));
    expect(await readFile(output.partialPath as string, 'utf8')).toBe('café,ok\n');
    await output.commit();
    expect(await readFile(file, 'utf8')).toBe('café,ok\n');
    expect(await readdir(dir)).toEqual(['out.csv']);
  });

  it('on resume checks the recorded prefix, cuts the rest off, then appends', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.json');
    const partial = join(dir, 'out.json.0123abcd.partial');
    await writeFile(partial, '[\n{"a":1},\n{"a":2}\n]\n{"half');
    const output = await openOutput({
      file,
      stdout: process.stdout,
      resume: { partial, bytes: 18, sha256: sha('[\n{"a":1},\n{"a":2}') },
    });
    expect(output.bytes).toBe(18);
    await output.write(',\n{"a":3}');
    expect(output.digest()).toBe(sha('[\n{"a":1},\n{"a":2},\n{"a":3}'));
    await output.abandon();
    expect(await readFile(partial, 'utf8')).toBe('[\n{"a":1},\n{"a":2},\n{"a":3}');
  });

  it('refuses to resume from a missing, short, changed or linked partial file', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.csv');
    const partial = join(dir, 'out.csv.0123abcd.partial');
    const expected = { bytes: 3, sha256: sha('abc') };
    const reopen = (file: string, partial: string) =>
      openOutput({ file, stdout: process.stdout, resume: { partial, ...expected } });
    await expect(reopen(file, partial)).rejects.toThrow(/cannot open .*no such/);
    await writeFile(partial, 'ab');
    await expect(reopen(file, partial)).rejects.toThrow(/shorter than the 3/);
    await writeFile(partial, 'abX');
    await expect(reopen(file, partial)).rejects.toThrow(/was changed since/);
    const real = join(dir, 'elsewhere');
    await writeFile(real, 'abc');
    const linked = join(dir, 'out.csv.4567abcd.partial');
    await symlink(real, linked);
    await expect(reopen(file, linked)).rejects.toThrow(/cannot open/);
  });
});
