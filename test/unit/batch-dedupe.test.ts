import { describe, expect, it } from 'vitest';
import { searchKey } from '../../src/batch/validate.js';
import { planOf } from '../helpers/batch-input.js';

const row = (line: number, query: string, location: string, radius?: number) => ({
  line,
  query,
  location,
  ...(radius === undefined ? {} : { radius }),
});

describe('repeated searches', () => {
  it('treats case, surrounding and repeated spaces as the same search', () => {
    expect(searchKey(row(1, 'Pest  Control', 'New York'))).toBe(
      searchKey(row(2, ' pest control ', 'NEW   york')),
    );
  });

  it('keeps the first of each search in input order and counts the repeats', async () => {
    const plan = await planOf('query,location\nplumber,Dallas\nroofer,Dallas\nPLUMBER,dallas\n');
    expect(plan.unique.map((r) => r.line)).toEqual([2, 3]);
    expect(plan.duplicates).toBe(1);
  });

  it('keeps searches that differ in radius, including an explicit radius vs none', async () => {
    const plan = await planOf('query,location,radius\na,b,\na,b,10\na,b,20\n');
    expect(plan.searches).toBe(3);
  });
});

describe('the input fingerprint', () => {
  const fingerprint = async (text: string) => (await planOf(`query,location,radius\n${text}`)).fingerprint;

  it('is stable for the same searches and changes with any value or the order', async () => {
    const rows = 'plumber,Dallas,\nroofer,Waco,5\n';
    expect(await fingerprint(rows)).toBe(
      await fingerprint(`\n\nplumber,Dallas,\nroofer,Waco,5\nroofer,waco,5\n`),
    );
    expect(await fingerprint(rows)).not.toBe(await fingerprint('roofer,Waco,5\nplumber,Dallas,\n'));
    expect(await fingerprint(rows)).not.toBe(await fingerprint('plumber,Dallas,\nroofer,Waco,6\n'));
    expect(await fingerprint(rows)).not.toBe(await fingerprint('plumber,Dallas,\n'));
  });

  it('is the SHA-256 of each unique search as sent, one JSON line each (what state files from before hold)', async () => {
    const { createHash } = await import('node:crypto');
    const expected = createHash('sha256')
      .update('["plumber","Dallas",null]\n["roofer","Waco",5]\n')
      .digest('hex');
    expect(await fingerprint('plumber,Dallas,\nroofer,Waco,5\n')).toBe(expected);
  });
});
