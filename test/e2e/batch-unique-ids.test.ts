// --unique promises each place once; a result without a place_id cannot be checked against the
// others, so the batch stops with exit 7 and says why, instead of writing it unchecked.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { json, startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const found = (results: unknown[]) =>
  json(200, { query: 'q', location: 'l', results, count: results.length });

describe('search --input --unique and results without a place_id', () => {
  it('stops at the search whose result has no place_id; without --unique the result is written as sent', async () => {
    const server = await startFakeServer();
    onTestFinished(() => server.close());
    server.route(
      'POST',
      '/api/v1/search',
      found([
        { place_id: 'p1', name: 'A' },
        { place_id: 'p2', name: 'B' },
      ]),
      found([
        { place_id: 'p1', name: 'A' },
        { place_id: null, name: 'No id' },
      ]),
    );
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');
    const target = ['--base-url', server.baseUrl, '--api-key', 'k', '--concurrency', '1'];
    const env = { XDG_CONFIG_HOME: await tempConfigHome() };

    const unique = await runCli(['search', '--input', input, '--unique', '--csv', ...target], { env });
    expect(unique.exitCode).toBe(7);
    expect(unique.stdout).toBe(
      'search_query,search_location,place_id,name,address,phone,website,rating,review_count,category,lat,lng\r\n' +
        'plumber,Austin,p1,A,,,,,,,,\r\nplumber,Austin,p2,B,,,,,,,,\r\n',
    );
    expect(unique.stderr).toContain(
      "leadctl: server answered line 3's search with a result without a place_id; --unique needs every result's place_id to keep each place once\n" +
        'without --unique such results are written as sent\n',
    );

    const plain = await runCli(['search', '--input', input, '--csv', ...target], { env });
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout.split('\r\n').filter((line) => line.startsWith('roofer'))).toEqual([
      'roofer,Dallas,p1,A,,,,,,,,',
      'roofer,Dallas,,No id,,,,,,,,',
    ]);
    expect(await readdir(dir)).toEqual(['in.csv']);
    expect(await readFile(input, 'utf8')).toContain('roofer');
  });
});
