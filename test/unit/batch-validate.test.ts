import { describe, expect, it } from 'vitest';
import { planBatch } from '../../src/batch/load-input.js';
import { formatProblems, validateEntries } from '../../src/batch/validate.js';

const entry = (line: number, values: Record<string, unknown>) => ({ line, values });

describe('validateEntries', () => {
  it('trims text and reads radius from CSV text or a JSON number; empty or null radius is absent', () => {
    const { rows, problems } = validateEntries([
      entry(2, { query: '  plumber ', location: 'Austin', radius: ' 5 ' }),
      entry(3, { query: 'roofer', location: 78701, radius: null }),
      entry(4, { query: 'roofer', location: 'Dallas', radius: '' }),
      entry(5, { query: 'roofer', location: 'Waco', radius: 50 }),
    ]);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, query: 'plumber', location: 'Austin', radius: 5 },
      { line: 3, query: 'roofer', location: '78701' },
      { line: 4, query: 'roofer', location: 'Dallas' },
      { line: 5, query: 'roofer', location: 'Waco', radius: 50 },
    ]);
  });

  it.each([0, 51, 2.5, '10.0', '-3', 'ten', true])('refuses radius %j', (radius) => {
    const { problems } = validateEntries([entry(3, { query: 'a', location: 'b', radius })]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/^radius must be a whole number from 1 to 50/);
  });

  it('refuses a missing or blank query or location, saying every problem of the row', () => {
    const { problems } = validateEntries([entry(7, { query: '  ', location: { city: 'x' } })]);
    expect(problems).toEqual([{ line: 7, message: 'query is missing or empty; location must be text' }]);
  });
});

describe('formatProblems', () => {
  it('lists problems in line order, at most 20, then "and N more"', () => {
    const problems = Array.from({ length: 25 }, (_, i) => ({ line: 30 - i, message: 'bad' }));
    const lines = formatProblems(problems);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('  line 6: bad');
    expect(lines[20]).toBe('  and 5 more');
  });
});

describe('planBatch', () => {
  it('refuses the whole input when any row is bad, listing each bad row', () => {
    const text = 'query,location,radius\nplumber,Austin,5\n,Dallas,\nroofer,Waco,99\n';
    expect(() => planBatch(text, 'in.csv')).toThrowError(
      'in.csv has 2 bad rows; nothing was searched\n  line 3: query is missing or empty\n  line 4: radius must be a whole number from 1 to 50 (found "99")',
    );
  });

  it('refuses an input without searches (exit 2)', () => {
    expect(() => planBatch('query,location\n', 'in.csv')).toThrowError('in.csv has no searches in it');
  });

  it('counts repeated rows and keeps the first of each', () => {
    const plan = planBatch('query,location\nplumber,Austin\nPlumber , austin\nroofer,Austin\n', 'in.csv');
    expect(plan.unique.map((r) => r.line)).toEqual([2, 4]);
    expect(plan.duplicates).toBe(1);
  });
});
