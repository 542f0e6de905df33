// `--append`: rows added to an existing csv, tsv or ndjson file, the header only when the file is new
// or empty, refused when the file's header is not this run's, and a failed run cuts the file back to
// its length. Also the closing line's request count, which every export ends with.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { type Bend, type BentServer, bentServerForTest, honest, leadsList } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let home: string;
beforeAll(async () => {
  home = await tempConfigHome();
});

async function serve(count: number, bend: Bend = honest) {
  return bentServerForTest(leadsList(count), bend);
}

function run(server: BentServer, args: string[]) {
  return runCli(['leads', ...args, '--base-url', server.baseUrl, '--api-key', 'k'], {
    env: { XDG_CONFIG_HOME: home },
  });
}

const HEADER = 'id,name,saved_at\r\n';
const FIELDS = ['--fields', 'id,name,saved_at'];

describe('--append', () => {
  it('csv: the header once, then rows under it run after run', async () => {
    const out = join(tempDir(), 'leads.csv');
    const server = await serve(3);
    for (let run_ = 0; run_ < 2; run_++) {
      const result = await run(server, ['--all', '--csv', ...FIELDS, '-o', out, '--append']);
      expect(result.exitCode).toBe(0);
    }
    const rows = leadsList(3).map((lead) => `${lead.id},${lead.name},${lead.saved_at}\r\n`);
    expect(await readFile(out, 'utf8')).toBe(HEADER + rows.join('') + rows.join(''));
  });

  it('writes the header into an empty file, and none into an ndjson file', async () => {
    const dir = tempDir();
    const server = await serve(2);
    const csv = join(dir, 'empty.csv');
    await writeFile(csv, '');
    expect((await run(server, ['--all', '--csv', ...FIELDS, '-o', csv, '--append'])).exitCode).toBe(0);
    expect(await readFile(csv, 'utf8')).toMatch(/^id,name,saved_at\r\nlead-1,/);

    const ndjson = join(dir, 'leads.ndjson');
    await writeFile(ndjson, '{"id":"old"}\n');
    expect((await run(server, ['--all', '-f', 'ndjson', '-o', ndjson, '--append'])).exitCode).toBe(0);
    expect(
      (await readFile(ndjson, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id),
    ).toEqual(['old', 'lead-1', 'lead-2']);
  });

  it("refuses a file whose header differs from this run's columns, before any request (exit 2)", async () => {
    const out = join(tempDir(), 'leads.csv');
    const before = 'name,id\r\nA,1\r\n';
    await writeFile(out, before);
    const server = await serve(3);
    const result = await run(server, ['--all', '--csv', ...FIELDS, '-o', out, '--append']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^leadctl: cannot append to .*leads\.csv: its header \(name,id\) differs from the columns this run writes \(id,name,saved_at\)$/m,
    );
    expect(server.requests).toEqual([]);
    expect(await readFile(out, 'utf8')).toBe(before);
  });

  it('refuses a file whose last line is cut off, and formats that cannot grow by lines', async () => {
    const dir = tempDir();
    const cut = join(dir, 'cut.csv');
    await writeFile(cut, `${HEADER}lead-9,Half`);
    const server = await serve(1);
    const result = await run(server, ['--all', '--csv', ...FIELDS, '-o', cut, '--append']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('its last line is not complete');
    expect(await readFile(cut, 'utf8')).toBe(`${HEADER}lead-9,Half`);

    const json = await run(server, ['--all', '--json', '-o', join(dir, 'x.json'), '--append']);
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toMatch(/^leadctl: --append works with csv, tsv and ndjson, not json$/m);
    const noFile = await run(server, ['--all', '--csv', '--append']);
    expect(noFile.exitCode).toBe(2);
    expect(noFile.stderr).toMatch(/^leadctl: --append needs -o <file>/m);
  });

  it('a run that fails midway leaves the file exactly as it was', async () => {
    const out = join(tempDir(), 'leads.tsv');
    const before = 'id\tname\tsaved_at\nlead-0\tKept\t2026-11-20\n';
    await writeFile(out, before);
    // Page 3 is not JSON: exit 7 after two pages (200 rows) went into the file.
    const server = await serve(500, (request, list) =>
      request.page === 3 ? 'not json' : honest(request, list),
    );
    const result = await run(server, [
      '--all',
      '--concurrency',
      '1',
      '-f',
      'tsv',
      ...FIELDS,
      '-o',
      out,
      '--append',
    ]);
    expect(result.exitCode).toBe(7);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    expect(await readFile(out, 'utf8')).toBe(before);

    // A file the failed run created itself is removed, as a plain -o leaves none.
    const fresh = join(tempDir(), 'fresh.tsv');
    const again = await run(server, ['--all', '--concurrency', '1', '-f', 'tsv', '-o', fresh, '--append']);
    expect(again.exitCode).toBe(7);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('the closing line', () => {
  it('says how many requests the export made, to a file or to stdout; --quiet silences it', async () => {
    const server = await serve(250);
    const out = join(tempDir(), 'leads.csv');
    const toFile = await run(server, ['--all', '--csv', '-o', out]);
    expect(toFile.exitCode).toBe(0);
    expect(toFile.stderr.trim().split('\n').at(-1)).toBe(
      `Wrote 250 leads to ${out} (${server.requests.length} requests).`,
    );

    server.requests.length = 0;
    const toStdout = await run(server, ['--all', '--concurrency', '1', '-f', 'ndjson']);
    expect(toStdout.stderr).toBe('Wrote 250 leads (3 requests).\n');
    expect(server.requests.length).toBe(3);
    const quiet = await run(server, ['--all', '-f', 'ndjson', '--quiet']);
    expect(quiet.stderr).toBe('');
  });
});
