// leadctl search: what it sends, what it prints, and the pipeline users write around it.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { BIN, cleanEnv, runCli, tempConfigHome } from '../helpers/cli.js';

let sandbox: SandboxHandle;
let home: string;
const auth = () => ['--base-url', sandbox.url, '--api-key', sandbox.apiKey];
const lastSearch = () => sandbox.requests.filter((q) => q.path === '/api/v1/search').at(-1);

beforeAll(async () => {
  sandbox = await startSandbox({});
  home = await tempConfigHome();
});
afterAll(() => sandbox.close());

describe('leadctl search', () => {
  it('joins the words of the query and sends no radius unless given', async () => {
    const r = await runCli(['search', 'emergency', 'plumber', '--location', 'Austin, TX', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(r.exitCode).toBe(0);
    expect(lastSearch()?.body).toEqual({ query: 'emergency plumber', location: 'Austin, TX' });
    expect(lastSearch()?.headers['content-type']).toBe('application/json');
    expect(r.stderr).toMatch(/^\d+ results for "emergency plumber" near Austin, TX\.$/m);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it('sends -r as an integer radius', async () => {
    await runCli(['search', 'roofer', '-l', '78701', '-r', '25', ...auth()], {
      env: { XDG_CONFIG_HOME: home },
    });
    expect(lastSearch()?.body).toEqual({ query: 'roofer', location: '78701', radius: 25 });
  });

  it("works in `leadctl search plumber -l Austin --json | jq '.[0].name'`", async () => {
    const r = await execa(
      'bash',
      [
        '-o',
        'pipefail',
        '-c',
        `node "$0" search plumber -l Austin --json --base-url "$1" --api-key "$2" | jq '.[0].name'`,
        BIN,
        sandbox.url,
        sandbox.apiKey,
      ],
      { reject: false, env: cleanEnv({ XDG_CONFIG_HOME: home }) },
    );
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/^"[^"]+"$/);
  });
});
