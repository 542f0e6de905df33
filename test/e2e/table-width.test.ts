// A table at the widths terminals have (80 and 100 columns): the columns a person triages leads by
// (name, rating, phone, website) stay whole, the long ones (address, category) are cut first, and the
// footers fit the width, so that a page of 19 results and its header stay on a 24-line screen.
// In-process with COLUMNS, as a piped table fits it: the layout is the point, not the terminal.
import { describe, expect, it } from 'vitest';
import { displayWidth, shortWebsite } from '../../src/output/table.js';
import { runCli } from '../helpers/cli.js';

const SEARCH = ['search', 'plumber', '-l', 'Austin', '--sandbox'];
type Result = Record<string, unknown>;

async function tableAt(columns: number) {
  const table = await runCli([...SEARCH, '-f', 'table'], { env: { COLUMNS: String(columns) } });
  expect(table.exitCode).toBe(0);
  const [header = '', ...rows] = table.stdout.trimEnd().split('\n');
  return { header, rows, stderr: table.stderr.trimEnd().split('\n') };
}

describe('a search table at 80 and 100 columns', () => {
  it.each([80, 100])('at %i keeps name, phone, website and rating whole', async (columns) => {
    const results = JSON.parse((await runCli([...SEARCH, '--json'])).stdout) as Result[];
    const { header, rows } = await tableAt(columns);
    expect(header).toMatch(/^name .* phone +website +rating$/);
    expect(rows).toHaveLength(results.length);
    results.forEach((result, index) => {
      const row = rows[index] ?? '';
      for (const value of [result.name, result.phone, shortWebsite(String(result.website ?? ''))])
        expect(row).toContain(String(value ?? ''));
      if (typeof result.rating === 'number') expect(row).toMatch(new RegExp(`${result.rating}$`));
    });
    for (const line of [header, ...rows]) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
  });

  it('at 100 shows the address cut rather than leaving out a column people decide by', async () => {
    const { header, rows } = await tableAt(100);
    expect(header).toMatch(/^name +address +phone/);
    expect(rows.some((row) => row.includes('…'))).toBe(true);
  });

  it.each([80, 100])(
    'at %i the footers fit the width, at word boundaries, and the header stays on screen',
    async (columns) => {
      const { rows, stderr } = await tableAt(columns);
      // No line wider than the terminal, so none is wrapped mid-word by it: leadctl breaks at spaces.
      for (const line of stderr) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
      expect(stderr.join(' ')).toMatch(/review_count, category hidden at \d+ columns: pick with --fields\./);
      // A 24-line terminal: the header, the rows, the footers and the shell's prompt.
      expect(1 + rows.length + stderr.length + 1).toBeLessThanOrEqual(24);
    },
  );
});
