// The package as users get it: `npm pack`, installed into an empty folder (dependencies from the
// registry, as `npm install leadctl` would), then run as a command and imported as a typed library.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
// Installing from the registry takes a while on a slow network; nothing here measures time.
const SLOW = 240_000;

let consumer: string;

describe('the packed package in an empty folder', () => {
  beforeAll(async () => {
    const packs = tempDir('pack');
    // --ignore-scripts: dist/ is already built by `npm test`; rebuilding it here would pull it from
    // under the e2e tests running beside this one.
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
      cwd: ROOT,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    consumer = tempDir('consumer');
    writeFileSync(
      join(consumer, 'package.json'),
      '{ "name": "consumer", "private": true, "type": "module" }\n',
    );
    await execa(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(packs, filename)],
      { cwd: consumer },
    );
  }, SLOW);

  it('runs `leadctl --version` and a sandbox search from node_modules/.bin', { timeout: SLOW }, async () => {
    const bin = join(consumer, 'node_modules/.bin/leadctl');
    const { version } = (await import(join(ROOT, 'package.json'), { with: { type: 'json' } })).default as {
      version: string;
    };
    const v = await execa(bin, ['--version'], { cwd: consumer, reject: false });
    expect(v.stdout).toBe(version);
    const search = await execa(bin, ['search', 'plumber', '-l', 'Austin', '--sandbox', '--json'], {
      cwd: consumer,
      reject: false,
      env: { XDG_CONFIG_HOME: consumer, XDG_STATE_HOME: consumer, XDG_CACHE_HOME: consumer },
    });
    expect(search.exitCode).toBe(0);
    expect(search.stderr).toMatch(/^\d+ results for "plumber" near Austin\.$/);
    const results = JSON.parse(search.stdout) as { place_id: unknown; name: unknown }[];
    expect(results.length).toBeGreaterThan(0);
    expect(typeof results[0]?.place_id).toBe('string');
  });

  it('imports LeadClient with its types: a consumer file type-checks, and a type error is caught', {
    timeout: SLOW,
  }, async () => {
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true },
        files: ['use.ts'],
      }),
    );
    const use = (line: string) =>
      writeFileSync(
        join(consumer, 'use.ts'),
        `import { LeadClient, type Lead, ProtocolError } from 'leadctl';
const client = new LeadClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
const names = async (): Promise<string[]> => {
  const { leads } = await client.listLeads({ page: 1, limit: 5 });
  return leads.map((lead: Lead) => (typeof lead.name === 'string' ? lead.name : ''));
};
void names;
void ProtocolError;
${line}
`,
      );
    use('');
    const ok = await execa('node', [TSC, '-p', consumer], { cwd: consumer, reject: false });
    expect(ok.stdout + ok.stderr).toBe('');
    expect(ok.exitCode).toBe(0);
    // The types are real, not `any`: a wrong use fails to compile.
    use('const wrong: number = client.apiRoot;');
    const bad = await execa('node', [TSC, '-p', consumer], { cwd: consumer, reject: false });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout).toMatch(/use\.ts.*Type 'string' is not assignable to type 'number'/);

    const run = await execa(
      'node',
      ['--input-type=module', '-e', "import('leadctl').then((m) => console.log(typeof m.LeadClient))"],
      {
        cwd: consumer,
        reject: false,
      },
    );
    expect(run.stdout).toBe('function');
  });
});
