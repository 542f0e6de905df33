// `--checkpoint FILE`: a nightly export that fetches only what is new. Against a list that grows (and
// loses items) between runs: each run writes exactly the items saved since the last committed one,
// at the documented cost, and a run that fails or is capped midway moves nothing, so the rerun loses
// and repeats nothing.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';
import {
  type Bend,
  type BentServer,
  bentServerForTest,
  honest,
  type Lead,
  leadsList,
} from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

let home: string;
beforeAll(async () => {
  home = await tempConfigHome();
});

async function serve(list: Lead[], bend: { current: Bend } = { current: honest }) {
  return bentServerForTest(list, (request, all) => bend.current(request, all));
}

/** Saves n leads in front of the list (newest first), named `<tag>-1` (newest) .. `<tag>-n`. */
function save(list: Lead[], tag: string, n: number, savedAt = '2026-11-21T00:00:00.000Z') {
  const fresh = Array.from({ length: n }, (_, index) => ({
    id: `${tag}-${index + 1}`,
    name: tag,
    saved_at: savedAt,
  }));
  list.unshift(...fresh);
  return fresh.map((lead) => lead.id);
}

function run(server: BentServer, args: string[]) {
  return runCli(['leads', ...args, '--base-url', server.baseUrl, '--api-key', 'k'], {
    env: { XDG_CONFIG_HOME: home },
  });
}

/** The ids of a csv written with the default columns (id first). */
async function csvIds(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split('\r\n').filter(Boolean);
  return lines.slice(1).map((line) => line.split(',')[0] as string);
}

const ids = (list: Lead[]) => list.map((lead) => String(lead.id));

describe('leads --checkpoint', () => {
  it('exports everything, then only the k new leads, then nothing, at the documented cost', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const list = leadsList(250);
    const server = await serve(list);

    const first = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'one.csv')]);
    expect(first.exitCode).toBe(0);
    expect(await csvIds(join(dir, 'one.csv'))).toEqual(ids(list));
    // The 3 pages of an --all export: the leads' times vouch for them, no head read.
    expect(server.requests.length).toBe(3);
    expect(first.stderr).toContain(`Wrote 250 leads to ${join(dir, 'one.csv')} (3 requests).`);
    expect((await stat(ckpt)).mode & 0o777).toBe(0o600);

    // 130 new: ceil(130/100) + 1 = 3 at most; the boundary is on page 2, so 2.
    const added = save(list, 'new', 130);
    server.requests.length = 0;
    const second = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'two.csv')]);
    expect(second.exitCode).toBe(0);
    expect(await csvIds(join(dir, 'two.csv'))).toEqual(added);
    expect(server.requests).toEqual([
      { page: 1, limit: 100 },
      { page: 2, limit: 100 },
    ]);
    expect(second.stderr).toContain('Wrote 130 new leads');
    expect(second.stderr).toContain('(2 requests).');

    server.requests.length = 0;
    const third = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'three.csv')]);
    expect(third.exitCode).toBe(0);
    expect(server.requests.length).toBe(1);
    expect(third.stderr).toContain('No new leads (1 request).');
    expect(await csvIds(join(dir, 'three.csv'))).toEqual([]);
  });

  it('is exact at the boundary: remembered leads deleted, new ones with the same timestamp, one re-saved', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    // Every lead saved in the same second: a timestamp cannot tell them apart.
    const list = leadsList(120).map((lead) => ({ ...lead, saved_at: '2026-11-20T12:00:00.000Z' }));
    const server = await serve(list);
    expect((await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'a.csv')])).exitCode).toBe(0);

    list.splice(0, 3); // the three newest leads the checkpoint remembers
    // A lead deep in the list re-saved since: newer than anything, but in its old place.
    (list[60] as Lead).saved_at = '2026-11-22T00:00:00.000Z';
    const added = save(list, 'same-second', 5, '2026-11-20T12:00:00.000Z');
    const second = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'b.csv')]);
    expect(second.exitCode).toBe(0);
    expect(await csvIds(join(dir, 'b.csv'))).toEqual(added);
  });

  it('a run that fails midway moves nothing; the rerun writes each new lead once', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const out = join(dir, 'leads.csv');
    const list = leadsList(50);
    const bend = { current: honest };
    const server = await serve(list, bend);
    const nightly = ['--checkpoint', ckpt, '--csv', '-o', out, '--append'];
    expect((await run(server, nightly)).exitCode).toBe(0);
    const checkpointBefore = await readFile(ckpt, 'utf8');
    const fileBefore = await readFile(out);

    const added = save(list, 'new', 250);
    // Page 2 answers something that is not JSON: exit 7 after page 1's 100 leads were appended.
    bend.current = (request, all) => (request.page === 2 ? 'not json' : honest(request, all));
    const failed = await run(server, nightly);
    expect(failed.exitCode).toBe(7);
    expect(await readFile(ckpt, 'utf8')).toBe(checkpointBefore);
    expect(await readFile(out)).toEqual(fileBefore);

    bend.current = honest;
    const rerun = await run(server, nightly);
    expect(rerun.exitCode).toBe(0);
    expect(await csvIds(out)).toEqual([...ids(list.slice(250)), ...added]);
    expect((await readFile(out, 'utf8')).match(/^id,/gm)).toHaveLength(1);
  });

  it('--max-requests stops at N with exit 5, the checkpoint unchanged, and the next run goes on', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const list = leadsList(40);
    const server = await serve(list);
    expect((await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'a.csv')])).exitCode).toBe(0);
    const checkpointBefore = await readFile(ckpt, 'utf8');

    const added = save(list, 'new', 450);
    server.requests.length = 0;
    const capped = await run(server, [
      '--checkpoint',
      ckpt,
      '--csv',
      '-o',
      join(dir, 'b.csv'),
      '--max-requests',
      '2',
    ]);
    expect(capped.exitCode).toBe(5);
    expect(server.requests.length).toBe(2);
    expect(capped.stderr).toMatch(/^leadctl: stopped at --max-requests 2: the export is not complete$/m);
    expect(capped.stderr).toContain(`the checkpoint ${ckpt} is unchanged: run the same command again`);
    expect(capped.stderr).toMatch(/the output received so far is in .*b\.csv\.[0-9a-f]{8}\.partial/);
    expect(await readFile(ckpt, 'utf8')).toBe(checkpointBefore);

    const rerun = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'c.csv')]);
    expect(rerun.exitCode).toBe(0);
    expect(await csvIds(join(dir, 'c.csv'))).toEqual(added);
  });

  it('refuses a checkpoint of another server, or one that is not a checkpoint, with exit 2', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const server = await serve(leadsList(10));
    expect((await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'a.csv')])).exitCode).toBe(0);
    const other = await serve(leadsList(10));
    other.requests.length = 0;
    const foreign = await run(other, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'b.csv')]);
    expect(foreign.exitCode).toBe(2);
    expect(foreign.stderr).toMatch(
      /^leadctl: checkpoint .* belongs to another list: base URL http:\/\/127\.0\.0\.1:\d+\/api\/v1\/, not /m,
    );
    expect(other.requests).toEqual([]);

    const saved = JSON.parse(await readFile(ckpt, 'utf8'));
    await writeFile(ckpt, JSON.stringify({ ...saved, head: 'lead-1' }));
    const tampered = await run(server, ['--checkpoint', ckpt, '--csv', '-o', join(dir, 'c.csv')]);
    expect(tampered.exitCode).toBe(2);
    expect(tampered.stderr).toMatch(/^leadctl: .*leads\.ckpt is not a leadctl checkpoint: head/m);
  });
});

describe('leads --all --max-requests', () => {
  it('sends exactly N requests, keeps what it wrote in the partial file and exits 5', async () => {
    const dir = tempDir();
    const server = await serve(leadsList(1_000));
    const result = await run(server, [
      '--all',
      '--concurrency',
      '1',
      '--csv',
      '-o',
      join(dir, 'all.csv'),
      '--max-requests',
      '3',
    ]);
    expect(result.exitCode).toBe(5);
    expect(server.requests.length).toBe(3);
    const partial = /the output received so far is in (.*\.partial)$/m.exec(result.stderr)?.[1] as string;
    expect(await csvIds(partial)).toEqual(ids(leadsList(300)));
    expect(result.stderr).toContain('run again with a higher --max-requests');
  });
});

describe('Ctrl-C during a checkpoint run', () => {
  it('exits 130 with the file and the checkpoint as they were; the rerun appends each new lead once', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'leads.ckpt');
    const out = join(dir, 'leads.csv');
    const sandbox = await startSandbox({ leads: 120, seed: 3 });
    onTestFinished(() => sandbox.close());
    const args = ['leads', '--checkpoint', ckpt, '--csv', '-o', out, '--append'];
    const auth = ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
    const env = { XDG_CONFIG_HOME: home };
    expect((await runCli([...args, ...auth], { env })).exitCode).toBe(0);
    const checkpointBefore = await readFile(ckpt, 'utf8');
    const fileBefore = await readFile(out, 'utf8');

    sandbox.addLeads(250);
    const sent = sandbox.requests.length;
    const child = spawnCli([...args, ...auth], { env, stdin: 'ignore' });
    // Ctrl-C while page 2 is at the server: page 1's 100 new leads are already in the file.
    sandbox.onRequest(async () => {
      if (sandbox.requests.length !== sent + 2) return;
      child.kill('SIGINT');
      await child;
    });
    const interrupted = await child;
    sandbox.onRequest(undefined);
    expect(interrupted.exitCode).toBe(130);
    expect(await readFile(ckpt, 'utf8')).toBe(checkpointBefore);
    expect(await readFile(out, 'utf8')).toBe(fileBefore);

    const rerun = await runCli([...args, ...auth], { env });
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stderr).toContain('Wrote 250 new leads');
    const rows = (await readFile(out, 'utf8')).split('\r\n').filter(Boolean);
    const everyId = rows.slice(1).map((row) => row.split(',')[0]);
    expect(rows.length).toBe(1 + 120 + 250);
    expect(new Set(everyId).size).toBe(370);
  });
});

describe('history --checkpoint', () => {
  it('writes the one search run since, and refuses a leads checkpoint (exit 2)', async () => {
    const dir = tempDir();
    const ckpt = join(dir, 'history.ckpt');
    const sandbox = await startSandbox({ seed: 4 });
    onTestFinished(() => sandbox.close());
    const auth = ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
    const env = { XDG_CONFIG_HOME: home };
    const history = (out: string) =>
      runCli(['history', '--checkpoint', ckpt, '-f', 'ndjson', '-o', join(dir, out), ...auth], { env });
    expect((await history('a.ndjson')).exitCode).toBe(0);

    const search = await runCli(['search', 'checkpoint test', '-l', 'Austin', '--json', ...auth], { env });
    expect(search.exitCode).toBe(0);
    const sent = sandbox.requests.length;
    const second = await history('b.ndjson');
    expect(second.exitCode).toBe(0);
    expect(sandbox.requests.length - sent).toBe(1);
    const entries = (await readFile(join(dir, 'b.ndjson'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.query, entry.location])).toEqual([['checkpoint test', 'Austin']]);
    expect(second.stderr).toContain('Wrote 1 new searches');

    const asLeads = await runCli(
      ['leads', '--checkpoint', ckpt, '--csv', '-o', join(dir, 'c.csv'), ...auth],
      { env },
    );
    expect(asLeads.exitCode).toBe(2);
    expect(asLeads.stderr).toMatch(/belongs to another list: resource history, not leads/);
  });
});
