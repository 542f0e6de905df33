// Values as the server sent them, in every format: numbers with their exact digits (64-bit ids,
// `4.50`, `1e3`, `-0`), every key in the server's order, odd keys included. The one change leadctl
// makes: a known numeric field holding a numeric string becomes that number, a non-number null.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type FakeServer, json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let server: FakeServer;
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(() => server.close());

const run = (args: string[]) =>
  runCli([...args, '--base-url', server.baseUrl, '--api-key', 'k', '--retries', '0', '-q'], {
    env: { XDG_CONFIG_HOME: tempDir('config') },
  });

// Written by hand, byte for byte: JSON.stringify could not produce these numbers.
const FIRST =
  '{"id":1790000000000000007,"name":"Big","rating":4.50,"review_count":1e3,"lat":-0,' +
  '"zz":{"n":12345678901234567890,"0":1,"b":2},"saved_at":"2026-11-20T10:00:00.000Z"}';
const SECOND_SENT =
  '{"saved_at":"2026-11-19T10:00:00Z","__proto__":{"p":1},"":"empty","a\\"b":"quote","id":"s-2",' +
  '"rating":"4.50","review_count":"N/A","7":"seven"}';
// The lenient reading of the numeric fields, and nothing else, changed.
const SECOND_WRITTEN =
  '{"saved_at":"2026-11-19T10:00:00Z","__proto__":{"p":1},"":"empty","a\\"b":"quote","id":"s-2",' +
  '"rating":4.50,"review_count":null,"7":"seven"}';
const BODY = `{"leads":[${FIRST},\n  ${SECOND_SENT}],"meta":{"page":1,"limit":25,"total":2,"totalPages":1}}`;

beforeEach(() => server.route('GET', '/api/v1/leads', json(200, BODY)));

describe('lossless values', () => {
  it('json: every item byte for byte as sent, but for the numeric fields read leniently', async () => {
    const { exitCode, stdout } = await run(['leads', '--json']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`[\n${FIRST},\n${SECOND_WRITTEN}\n]\n`);
  });

  it('ndjson: one item per line, the same bytes', async () => {
    const { exitCode, stdout } = await run(['leads', '--format', 'ndjson']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`${FIRST}\n${SECOND_WRITTEN}\n`);
  });

  it('json with --fields: the chosen keys in that order, numbers exact, odd names too', async () => {
    const { exitCode, stdout } = await run(['leads', '--format', 'ndjson', '--fields', 'zz,id,__proto__,7']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(
      '{"zz":{"n":12345678901234567890,"0":1,"b":2},"id":1790000000000000007,"__proto__":null,"7":null}\n' +
        '{"zz":null,"id":"s-2","__proto__":{"p":1},"7":"seven"}\n',
    );
  });

  it('csv: the digits as sent', async () => {
    const { exitCode, stdout } = await run(['leads', '--csv']);
    expect(exitCode).toBe(0);
    expect(parseCsv(stdout)).toEqual([
      ['id', 'name', 'address', 'phone', 'website', 'rating', 'review_count', 'category', 'saved_at'],
      ['1790000000000000007', 'Big', '', '', '', '4.50', '1e3', '', '2026-11-20T10:00:00.000Z'],
      ['s-2', '', '', '', '', '4.50', '', '', '2026-11-19T10:00:00Z'],
    ]);
  });

  it('tsv: the digits as sent, nested values as exact JSON', async () => {
    const { exitCode, stdout } = await run(['leads', '--format', 'tsv', '--fields', 'id,rating,lat,zz']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(
      'id\trating\tlat\tzz\n' +
        '1790000000000000007\t4.50\t-0\t{"n":12345678901234567890,"0":1,"b":2}\n' +
        's-2\t4.50\t\t\n',
    );
  });

  it('table: the digits as sent', async () => {
    const { exitCode, stdout } = await run([
      'leads',
      '--format',
      'table',
      '--fields',
      'id,rating,review_count,zz',
    ]);
    expect(exitCode).toBe(0);
    const firstRow = stdout.split('\n').find((line) => line.includes('Big') || line.includes('179'));
    expect(firstRow).toMatch(/^1790000000000000007 +4\.50 +1e3 +\{"n":12345678901234567890,"0":1,"b":2\}$/);
    expect(stdout).not.toContain('1790000000000000000');
  });

  it('search results: a numeric place_id and long coordinates keep their digits', async () => {
    server.route(
      'POST',
      '/api/v1/search',
      json(
        200,
        '{"results":[{"place_id":9007199254740993,"name":"P","lat":30.2671530000,"lng":-97.74306080000001}],' +
          '"count":1,"query":"plumber","location":"Austin"}',
      ),
    );
    const { exitCode, stdout } = await run(['search', 'plumber', '-l', 'Austin', '--format', 'ndjson']);
    expect(exitCode).toBe(0);
    expect(stdout).toBe(
      '{"place_id":9007199254740993,"name":"P","lat":30.2671530000,"lng":-97.74306080000001}\n',
    );
  });
});
