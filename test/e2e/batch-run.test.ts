// leadctl search --input: validation, duplicates, formats, concurrency, refused rows and the
// --max-requests cap, run as a user would (the built binary) against the sandbox over HTTP.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { runCli, tempConfigHome } from '../helpers/cli.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { tempDir } from '../helpers/temp.js';

const INPUT = [
  'query,location,radius',
  'plumber,Dallas,',
  'plumber,Austin,5',
  'roofer,Dallas,',
  'PLUMBER , dallas,', // repeats line 2: searched once
  'electrician,"Fort Worth, TX",',
  'plumber,Dallas,25', // another radius: a different search, sharing places with line 2
].join('\n');
const UNIQUE_BODIES = [
  { query: 'plumber', location: 'Dallas' },
  { query: 'plumber', location: 'Austin', radius: 5 },
  { query: 'roofer', location: 'Dallas' },
  { query: 'electrician', location: 'Fort Worth, TX' },
  { query: 'plumber', location: 'Dallas', radius: 25 },
];

let home: string;
let dir: string;
let sandbox: SandboxHandle | undefined;

beforeAll(async () => {
  home = await tempConfigHome();
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function setUp(input = INPUT, options: SandboxOptions = {}) {
  sandbox = await startSandbox({ seed: 11, ...options });
  dir = tempDir('batch-e2e');
  const file = join(dir, 'searches.csv');
  await writeFile(file, input);
  return file;
}

function run(args: string[], input?: string) {
  const s = sandbox as SandboxHandle;
  return runCli(['search', ...args, '--base-url', s.url, '--api-key', s.apiKey], {
    env: { XDG_CONFIG_HOME: home },
    ...(input === undefined ? {} : { input }),
  });
}

const searches = () =>
  (sandbox as SandboxHandle).requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/search');

describe('batch input validation', () => {
  it('lists every bad row with its line, exits 2 and sends nothing', async () => {
    const file = await setUp(
      'query,location,radius\nplumber,Dallas,\n,Austin,\nroofer,Waco,99\nroofer,Waco,7.5\n',
    );
    const { exitCode, stdout, stderr } = await run(['--input', file, '--csv']);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`leadctl: ${file} has 3 bad rows; nothing was searched\n`);
    expect(stderr).toContain('  line 3: query is missing or empty\n');
    expect(stderr).toContain('  line 4: radius must be a whole number from 1 to 50 (found "99")\n');
    expect(stderr).toContain('  line 5: radius must be a whole number from 1 to 50 (found "7.5")\n');
    expect((sandbox as SandboxHandle).requests).toHaveLength(0);
  });

  it('refuses unknown columns and an empty input before any request', async () => {
    const file = await setUp('query,location,raduis\nplumber,Dallas,5\n');
    const unknown = await run(['--input', file]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(
      `leadctl: ${file}: unknown column "raduis" in the header (did you mean "radius"?); nothing was searched`,
    );
    const empty = await run(['--input', '-'], 'query,location\n');
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toContain('leadctl: standard input has no searches in it');
    expect((sandbox as SandboxHandle).requests).toHaveLength(0);
  });

  it('refuses --resume without -o and a query together with --input', async () => {
    const file = await setUp();
    const resume = await run(['--input', file, '--resume']);
    expect(resume.exitCode).toBe(2);
    expect(resume.stderr).toContain(
      'leadctl: --resume needs -o <file>: the regular file the stopped batch was writing',
    );
    expect((await run(['plumber', '--input', file])).exitCode).toBe(2);
    expect((sandbox as SandboxHandle).requests).toHaveLength(0);
  });
});

describe('batch searches', () => {
  it('searches each distinct row once, in input order, labelling every csv row with its search', async () => {
    const file = await setUp();
    const { exitCode, stdout, stderr } = await run(['--input', file, '--csv', '--concurrency', '1']);
    expect(exitCode).toBe(0);
    expect(searches().map((r) => r.body)).toEqual(UNIQUE_BODIES);
    const [header, ...rows] = parseCsv(stdout);
    expect(header).toEqual([
      ...['search_query', 'search_location', 'place_id', 'name', 'address', 'phone', 'website'],
      ...['rating', 'review_count', 'category', 'lat', 'lng'],
    ]);
    // The searches' results follow one another in input order: one run of rows per search.
    const runs = rows
      .map((row) => `${row[0]}|${row[1]}`)
      .filter((label, index, labels) => label !== labels[index - 1]);
    expect(runs).toEqual([
      'plumber|Dallas',
      'plumber|Austin',
      'roofer|Dallas',
      'electrician|Fort Worth, TX',
      'plumber|Dallas',
    ]);
    expect(stderr).toContain(`5 sent, 0 failed, 1 skipped as duplicate; ${rows.length} results\n`);
  });

  it("json and ndjson carry search_query and search_location ahead of each result's own keys", async () => {
    const file = await setUp();
    const json = await run(['--input', file, '--json']);
    expect(json.exitCode).toBe(0);
    const items = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(Object.keys(items[0] ?? {}).slice(0, 3)).toEqual(['search_query', 'search_location', 'place_id']);
    expect(items.at(-1)).toMatchObject({ search_query: 'plumber', search_location: 'Dallas' });
    const ndjson = await run(['--input', file, '--format', 'ndjson']);
    const lines = ndjson.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual(items);
  });

  it('--unique keeps the first result per place_id across searches', async () => {
    const file = await setUp();
    const all = JSON.parse((await run(['--input', file, '--json'])).stdout) as Array<{ place_id: string }>;
    const unique = JSON.parse((await run(['--input', file, '--json', '--unique'])).stdout) as typeof all;
    const firsts = all.filter(
      (item, index) => all.findIndex((other) => other.place_id === item.place_id) === index,
    );
    expect(all.length).toBeGreaterThan(firsts.length); // the radius 25 search repeats places
    expect(unique).toEqual(firsts);
  });

  it('reads JSON lines from stdin with -', async () => {
    await setUp();
    const input =
      '{"query":"plumber","location":"Dallas"}\n{"query":"roofer","location":"Dallas","radius":3}\n';
    const { exitCode, stdout } = await run(['--input', '-', '--format', 'ndjson'], input);
    expect(exitCode).toBe(0);
    expect(searches().map((r) => r.body)).toEqual([
      { query: 'plumber', location: 'Dallas' },
      { query: 'roofer', location: 'Dallas', radius: 3 },
    ]);
    expect(stdout.split('\n')[0]).toMatch(
      /^\{"search_query":"plumber","search_location":"Dallas","place_id":/,
    );
  });

  it('--concurrency N keeps N searches in flight and the output in input order', async () => {
    const file = await setUp();
    let inFlight = 0;
    let most = 0;
    // The first searches are held until `gate` of them are in flight (then everything goes on), so
    // overlap does not depend on timing: with fewer in flight than that the run would stall.
    const holdUntil = (gate: number) => {
      const held: (() => void)[] = [];
      (sandbox as SandboxHandle).onRequest(async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        if (held.length < gate) {
          const released = new Promise<void>((resolve) => held.push(resolve));
          if (held.length === gate) for (const release of held) release();
          await released;
        }
        await new Promise((resolve) => setImmediate(resolve)); // a chance for one more to arrive
        inFlight -= 1;
      });
    };
    holdUntil(3);
    const parallel = await run(['--input', file, '--csv', '--concurrency', '3']);
    expect(most).toBe(3);
    most = 0;
    holdUntil(1);
    const serial = await run(['--input', file, '--csv', '--concurrency', '1']);
    expect(most).toBe(1);
    expect(parallel.exitCode).toBe(0);
    expect(parallel.stdout).toBe(serial.stdout);
  });

  it('reports a row the server refuses (422), goes on with the others and exits 2', async () => {
    const long = 'x'.repeat(201); // the sandbox refuses more than 200 characters
    const file = await setUp(`query,location\nplumber,Dallas\n${long},Austin\nroofer,Dallas\n`);
    const { exitCode, stdout, stderr } = await run(['--input', file, '--format', 'ndjson']);
    expect(exitCode).toBe(2);
    expect(searches()).toHaveLength(3);
    expect(stderr).toMatch(new RegExp(`^leadctl: line 3 \\(${long}, Austin\\): .*query`, 'm'));
    expect(stderr).toMatch(/^3 sent, 1 failed, 0 skipped as duplicate; \d+ results$/m);
    const labels = new Set(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).search_query),
    );
    expect([...labels]).toEqual(['plumber', 'roofer']);
  });

  it('--max-requests N sends exactly N searches, ends cleanly and exits 5', async () => {
    const file = await setUp();
    const { exitCode, stdout, stderr } = await run(['--input', file, '--json', '--max-requests', '3']);
    expect(exitCode).toBe(5);
    expect(searches()).toHaveLength(3);
    const items = JSON.parse(stdout) as Array<Record<string, unknown>>; // still a complete json array
    expect(new Set(items.map((item) => item.search_location))).toEqual(new Set(['Dallas', 'Austin']));
    expect(stderr).toMatch(/^3 sent, 0 failed, 1 skipped as duplicate, 2 not run; \d+ results$/m);
    expect(stderr).toContain('leadctl: stopped at --max-requests 3: 2 searches were not run\n');
  });

  it('--max-requests counts retries too: a failing server never gets more than N requests', async () => {
    const file = await setUp(INPUT, { failRate: 0.6 });
    const { exitCode, stderr } = await run([
      '--input',
      file,
      '--json',
      '--max-requests',
      '4',
      '--retries',
      '5',
      '--concurrency',
      '2',
    ]);
    expect(searches().length).toBeLessThanOrEqual(4);
    expect(searches().some((r) => r.status === 500)).toBe(true);
    expect(exitCode).toBe(5);
    expect(stderr).toContain('leadctl: stopped at --max-requests 4');
  });

  it('a single search without --input is unchanged: the output has no search_ columns', async () => {
    await setUp();
    const { exitCode, stdout } = await run(['plumber', '-l', 'Dallas', '--json']);
    expect(exitCode).toBe(0);
    expect(Object.keys(JSON.parse(stdout)[0])[0]).toBe('place_id');
  });
});
