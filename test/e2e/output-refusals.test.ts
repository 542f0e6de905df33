// What the output options refuse, as a person meets it: exit 2, one line with the fix, nothing on
// stdout, and (where the slip can be seen before any request) no request sent, no live search spent.
// In-process: the exit code and the lines are the point, not the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';

let server: FakeServer;
// `score` and `tier` are fields beyond the spec: a number and a text.
const LEADS = [
  { id: 'a', name: 'Café Zoë', rating: 4.5, review_count: 20, score: 7, tier: 'gold' },
  { id: 'b', name: 'Acme', rating: 3.9, review_count: 3, score: 2, tier: 'free' },
];

beforeAll(async () => {
  server = await startFakeServer();
  server.route(
    'GET',
    '/api/v1/leads',
    json(200, { leads: LEADS, meta: { page: 1, limit: 25, total: 2, totalPages: 1 } }),
  );
  server.route('POST', '/api/v1/search', json(200, { query: 'q', location: 'l', count: 0, results: [] }));
});
afterAll(() => server.close());

const run = (args: string[]) => runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k-test']);

describe('--fields renames carry no control characters into a header', () => {
  it.each([
    ['name:"A\u001bB"', 'A\\x1bB'],
    ['name:"Company\rName"', 'Company\\rName'],
    ['name:"Tab\there"', 'Tab\\there'],
    ['name:"Evil\u202eName"', 'Evil\\u202eName'],
  ])('rename %# is exit 2 before any request, the character shown as an escape', async (fields, shown) => {
    const before = server.requests.length;
    const result = await run(['leads', '--csv', '--fields', fields]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const [line = ''] = result.stderr.split('\n');
    expect(line).toContain(`a control or invisible character in the name: ${shown}`);
    expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(server.requests.length).toBe(before);
  });

  it('a rename with accents and punctuation is a header cell a csv reader reads back exactly', async () => {
    const result = await run(['leads', '--csv', '--fields', 'name:"Société, Name",rating:Note ★']);
    expect(result.exitCode).toBe(0);
    expect(parseCsv(result.stdout)[0]).toEqual(['Société, Name', 'Note ★']);
  });
});

describe('--where compares a number field with a number', () => {
  it.each([
    [
      'rating>=4,5',
      'rating is a number and "4,5" is not one (did you mean rating>=4.5?)',
      "--where 'rating>=4.5'",
    ],
    ['rating>=four', 'rating is a number and "four" is not one', "--where 'rating>=4.5'"],
    ['review_count > 1,000', '(did you mean review_count>1000?)', "--where 'review_count>1000'"],
  ])('%s is exit 2 with the fix, before any request', async (condition, message, fix) => {
    const before = server.requests.length;
    const result = await run(['leads', '--json', '--where', condition]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const [line, hint] = result.stderr.split('\n');
    expect(line).toContain(message);
    expect(hint).toContain(fix);
    expect(server.requests.length).toBe(before);
  });

  it('a search is refused before it is sent: no live search spent', async () => {
    const before = server.requests.length;
    const result = await run(['search', 'plumber', '-l', 'Austin', '--json', '--where', 'rating>=4,5']);
    expect(result.exitCode).toBe(2);
    expect(server.requests.length).toBe(before);
  });

  it('a field beyond the spec is a number when the first page holds numbers in it', async () => {
    const refused = await run(['leads', '--json', '--where', 'score>=seven']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('score is a number and "seven" is not one');
    const text = await run(['leads', '--json', '--where', 'tier>=g']);
    expect(text.exitCode).toBe(0);
    expect((JSON.parse(text.stdout) as { id: string }[]).map((lead) => lead.id)).toEqual(['a']);
  });

  it('an empty value and a contains stay questions about the text', async () => {
    expect((await run(['leads', '--json', '--where', 'rating='])).exitCode).toBe(0);
    const contains = await run(['leads', '--json', '--where', 'rating~4.']);
    expect((JSON.parse(contains.stdout) as { id: string }[]).map((lead) => lead.id)).toEqual(['a']);
  });
});
