// The library face, as a user's program imports it: by package name, from the built dist/.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 130 });
});
afterAll(() => sandbox.close());

describe("import { LeadClient } from 'leadctl'", () => {
  it('runs the example of docs/library.md against the sandbox', async () => {
    const r = await execa('node', ['examples/library.mjs'], {
      cwd: ROOT,
      reject: false,
      env: { LEADCTL_BASE_URL: sandbox.url, LEADCTL_API_KEY: sandbox.apiKey },
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^130 saved leads; newest: \S.*\n\d+ plumbers near Austin\n\d+ leads saved in the last 7 days have a phone number$/,
    );
    const pages = sandbox.requests.filter((q) => q.path === '/api/v1/leads' && q.query.limit === '100');
    expect(pages.length).toBeGreaterThanOrEqual(2);
  });

  it('is the program docs/library.md shows', () => {
    const page = readFileSync(resolve(ROOT, 'docs/library.md'), 'utf8');
    const program = readFileSync(resolve(ROOT, 'examples/library.mjs'), 'utf8');
    const block = /```js\n\/\/ examples\/library\.mjs \(run by the tests\)\n([\s\S]*?)```/.exec(page)?.[1];
    expect(program.endsWith(block ?? '(no block)')).toBe(true);
  });

  it('exports the error classes and paginate, with types', async () => {
    const script = `
      import * as lib from 'leadctl';
      import { existsSync } from 'node:fs';
      const names = ['LeadClient','paginate','LeadError','AuthError','ForbiddenError','ValidationError','RateLimitedError','ServerError','NetworkError','ProtocolError','NotFoundError','UsageError'];
      const missing = names.filter((n) => typeof lib[n] !== 'function');
      const types = existsSync(new URL(import.meta.resolve('leadctl').replace('index.js', 'index.d.ts')));
      console.log(JSON.stringify({ missing, types, authIsLeadError: new lib.AuthError('x', { status: 401 }) instanceof lib.LeadError }));`;
    const r = await execa('node', ['--input-type=module', '-e', script], { cwd: ROOT, reject: false });
    expect(r.stderr).toBe('');
    expect(JSON.parse(String(r.stdout))).toEqual({ missing: [], types: true, authIsLeadError: true });
  });
});
