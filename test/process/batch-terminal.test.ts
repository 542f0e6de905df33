// A person running a batch at a terminal sees each search's results as it is answered, not the whole
// table at the end: the second search is held by the server until the first one's rows are on screen.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { tempConfigHome } from '../helpers/cli.js';
import { type Answer, json, startFakeServer } from '../helpers/fake-server.js';
import { runInPty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

describe('search --input on a terminal', () => {
  it('shows the first search as a table before the second is answered', async () => {
    const server = await startFakeServer();
    onTestFinished(() => server.close());
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = (name: string): Answer => json(200, { results: [{ place_id: name, name }], count: 1 });
    const later: Answer = (res, request, destroy) => {
      void held.then(() => answer('Second Ltd')(res, request, destroy));
    };
    server.route('POST', '/api/v1/search', answer('First Place Ltd'), later);
    const dir = tempDir();
    const input = join(dir, 'in.csv');
    await writeFile(input, 'query,location\nplumber,Austin\nroofer,Dallas\n');

    const run = runInPty(
      ['search', '--input', input, '--concurrency', '1', '--base-url', server.baseUrl, '--api-key', 'k'],
      { env: { XDG_CONFIG_HOME: await tempConfigHome(), NO_COLOR: '1' } },
    );
    await run.waitFor('First Place Ltd');
    release();
    const { exitCode, output } = await run.exited;
    expect(exitCode).toBe(0);
    expect(output.indexOf('Second Ltd')).toBeGreaterThan(output.indexOf('First Place Ltd'));
  });
});
