import { describe, expect, it } from 'vitest';
import { formatProblems, validateEntry } from '../../src/batch/validate.js';
import { planOf } from '../helpers/batch-input.js';

const entry = (line: number, values: Record<string, unknown>) => ({ line, values });

describe('validateEntry', () => {
  it('trims text and reads radius from CSV text or a JSON number; empty or null radius is absent', () => {
    expect([
      validateEntry(entry(2, { query: '  plumber ', location: 'Austin', radius: ' 5 ' })),
      validateEntry(entry(3, { query: 'roofer', location: 78701, radius: null })),
      validateEntry(entry(4, { query: 'roofer', location: 'Dallas', radius: '' })),
      validateEntry(entry(5, { query: 'roofer', location: 'Waco', radius: 50 })),
    ]).toEqual([
      { line: 2, query: 'plumber', location: 'Austin', radius: 5 },
      { line: 3, query: 'roofer', location: '78701' },
      { line: 4, query: 'roofer', location: 'Dallas' },
      { line: 5, query: 'roofer', location: 'Waco', radius: 50 },
    ]);
  });

  it.each([0, 51, 2.5, '10.0', '-3', 'ten', true])('refuses radius %j', (radius) => {
    const problem = validateEntry(entry(3, { query: 'a', location: 'b', radius }));
    expect(problem).toMatchObject({
      line: 3,
      message: expect.stringMatching(/^radius must be a whole number from 1 to 50/),
    });
  });

  it('refuses a missing or blank query or location, saying every problem of the row', () => {
    expect(validateEntry(entry(7, { query: '  ', location: { city: 'x' } }))).toEqual({
      line: 7,
      message: 'query is missing or empty; location must be text',
    });
  });
});

describe('formatProblems', () => {
  it('lists the problems kept in line order, then "and N more" for the rest', () => {
    const problems = Array.from({ length: 20 }, (_, i) => ({ line: 30 - i, message: 'bad' }));
    const lines = formatProblems(problems, 25);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('  line 11: bad');
    expect(lines[20]).toBe('  and 5 more');
  });
});

describe('the plan', () => {
  it('refuses the whole input when any row is bad, listing each bad row', async () => {
    const text = 'query,location,radius\nplumber,Austin,5\n,Dallas,\nroofer,Waco,99\n';
    await expect(planOf(text)).rejects.toThrowError(
      'standard input has 2 bad rows; nothing was searched\n  line 3: query is missing or empty\n  line 4: radius must be a whole number from 1 to 50 (found "99")',
    );
  });

  it('lists the first 20 bad rows of many, and counts the others', async () => {
    const text = `query,location\n${',x\n'.repeat(500)}`;
    await expect(planOf(text)).rejects.toThrowError(
      /^standard input has 500 bad rows; nothing was searched\n( {2}line \d+: query is missing or empty\n){20} {2}and 480 more$/,
    );
  });

  it('refuses an input without searches (exit 2)', async () => {
    await expect(planOf('query,location\n')).rejects.toThrowError('standard input has no searches in it');
  });

  it('counts repeated rows and keeps the first of each', async () => {
    const plan = await planOf('query,location\nplumber,Austin\nPlumber , austin\nroofer,Austin\n');
    expect(plan.unique.map((r) => r.line)).toEqual([2, 4]);
    expect(plan.duplicates).toBe(1);
  });
});
