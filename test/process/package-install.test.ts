// The package as users get it: `npm pack`, installed into an empty folder as `npm install leadctl`
// would, then run as a command, imported (ESM) and required (CommonJS) as a library against the
// sandbox (every example of docs/library.md, in both module systems), and type-checked by strict
// TypeScript consumers of both module systems.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordedRequest, type SandboxHandle, startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
// Installing from the registry takes a while on a slow network; nothing here measures time.
const SLOW = 240_000;

let consumer: string;
let installed: string;
let packedFiles: string[];
let sandbox: SandboxHandle;
/** A server whose daily limit is spent until 2030-01-02, by its own clock: every request is a 429. */
let spent: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ leads: 30 });
  spent = await startSandbox({ dailyLimit: 0, now: () => Date.UTC(2030, 0, 1, 12) });
  const packs = tempDir('pack');
  // --ignore-scripts: dist/ is already built by `npm test`; rebuilding it here would pull it from
  // under the e2e tests running beside this one.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {
    cwd: ROOT,
  });
  const [{ filename, files }] = JSON.parse(packed.stdout) as [
    { filename: string; files: { path: string }[] },
  ];
  packedFiles = files.map((file) => file.path);
  consumer = tempDir('consumer');
  writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
  await execa(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(packs, filename)],
    { cwd: consumer },
  );
  installed = join(consumer, 'node_modules/leadctl');
}, SLOW);
afterAll(async () => {
  await sandbox?.close();
  await spent?.close();
});

const sandboxEnv = (server = sandbox) => ({
  LEADCTL_TEST_BASE_URL: server.url,
  LEADCTL_TEST_API_KEY: server.apiKey,
  LEADCTL_BASE_URL: server.url,
  LEADCTL_API_KEY: server.apiKey,
});

describe('the packed package', () => {
  it('installs nothing but itself: every library it runs is in its bundle', () => {
    const packages = readdirSync(join(consumer, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(packages).toEqual(['leadctl']);
  });

  it('carries declarations for the public API only, and source maps without bundled packages’ sources', () => {
    expect(packedFiles.filter((path) => /\.d\.c?ts$/.test(path)).sort()).toEqual([
      'dist/index.d.cts',
      'dist/index.d.ts',
    ]);
    const map = JSON.parse(readFileSync(join(installed, 'dist/index.js.map'), 'utf8')) as {
      sources: string[];
      sourcesContent: (string | null)[];
    };
    const own = map.sources.findIndex((source) => source.endsWith('src/api/client.ts'));
    expect(map.sourcesContent[own]).toMatch(/export class LeadClient/);
    const bundled = map.sources.flatMap((source, index) =>
      source.includes('node_modules/') ? [map.sourcesContent[index]] : [],
    );
    expect(bundled.length).toBeGreaterThan(0);
    expect(bundled.every((content) => content === null)).toBe(true);
  });

  it('has no runtime import that resolves to a package the install lacks', async () => {
    // esbuild follows every static import, dynamic import and require() of a string, from the installed
    // files, as Node would resolve them; one it cannot find is an error.
    const entryPoints = {
      bin: join(installed, 'bin/leadctl.cjs'),
      esm: join(installed, 'dist/index.js'),
      cjs: join(installed, 'dist/index.cjs'),
      mcp: join(installed, 'dist/mcp-server.js'),
    };
    const result = await build({
      entryPoints,
      bundle: true,
      write: false,
      outdir: join(consumer, 'out'),
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
      metafile: true,
    }).catch((error: { errors?: { text: string }[] }) => ({ failures: error.errors?.map((e) => e.text) }));
    expect('failures' in result ? result.failures : []).toEqual([]);
    const inputs = Object.keys('metafile' in result ? (result.metafile?.inputs ?? {}) : {});
    expect(inputs.some((path) => path.includes('dist/chunks/'))).toBe(true);
  });

  it('runs `leadctl --version` and a sandbox search from node_modules/.bin', { timeout: SLOW }, async () => {
    const bin = join(consumer, 'node_modules/.bin/leadctl');
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
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
});

// The same program for both module systems: a page of leads, typed values, JSON out.
const program = (load: string) => `${load}
const client = new LeadClient({ baseUrl: process.env.LEADCTL_TEST_BASE_URL, apiKey: process.env.LEADCTL_TEST_API_KEY });
client.listLeads({ page: 1, limit: 3 }).then(async ({ leads, meta }) => {
  const lead = leads[0];
  console.log(JSON.stringify({
    total: meta.total,
    name: typeof lead.name,
    rating: typeof lead.rating,
    ratingPlusOne: lead.rating + 1 === Number(JSON.stringify(lead.rating)) + 1,
    roundTrip: JSON.stringify(JSON.parse(JSON.stringify(lead))) === JSON.stringify(lead),
    errorIsLeadError: new ProtocolError('x') instanceof LeadError,
  }));
  await client.close();
});
`;

/** The JavaScript blocks of docs/library.md, read at test time, with the line each starts on. */
const LIBRARY_PAGE = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
const LIBRARY_EXAMPLES = [...LIBRARY_PAGE.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((match) => ({
  line: LIBRARY_PAGE.slice(0, match.index).split('\n').length,
  code: match[1] ?? '',
}));

/**
 * What each example prints, found by a line of its code (every example must match exactly one), what
 * the sandbox must have received from it, and which sandbox it runs against (default: `sandbox`).
 */
const PRINTS: [
  code: RegExp,
  stdout: RegExp,
  received?: ((requests: RecordedRequest[]) => void) | undefined,
  against?: () => SandboxHandle,
][] = [
  [
    /examples\/library\.mjs/,
    /^30 saved leads; newest: \S.*\n\d+ plumbers near Austin\n\d+ leads saved in the last 7 days have a phone number$/,
  ],
  [
    /'X-Team': 'north'/,
    /^10 of 30 leads on page 1 of 3$/,
    (requests) => expect(requests.map((request) => request.headers['x-team'])).toEqual(['north']),
  ],
  [
    /withResponse\(\)/,
    /^5 leads, HTTP 200, request req_[0-9a-f-]{36}\nrequests left today: \d+\n\d+ plumbers$/,
    (requests) =>
      expect(requests.at(-1)?.headers['idempotency-key']).toBe('nightly-2026-11-23-plumber-austin'),
  ],
  [
    /logger:/,
    /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/leads\?page=1&limit=1\nGET \S+ answered 200\nAuthorization as logged: Bearer …3333$/,
  ],
  [
    /onRateLimit:/,
    /^limited until 2030-01-02T00:00:00\.000Z; waiting: false\nnot now: rate limit reached \(Daily limit of 0 requests reached; .*\): onRateLimit chose not to wait; the server allows more requests at .*$/,
    undefined,
    () => spent,
  ],
  [/since: '30d'/, /^\d+ leads of the last 30 days have a phone; \d+ plumbers found$/],
  [/ExactNumber/, /^[^\n]+ \(\S+\): rated (never|[\d.]+)\ntrue$/],
  [
    /apiKey: 'not-a-key'/,
    /^refused \(401\): the server rejected the API key \(401\): .*; a LeadError: true\nrequest id for support: req_[0-9a-f-]{36}$/,
  ],
  [/controller\.abort/, /^stopped after 5 leads: AbortedError, because enough$/],
];

/** The same program as CommonJS: its import as a require() and its top-level await in an async function. */
function asCommonJs(code: string): string {
  const imports = [...code.matchAll(/^import \{([^}]+)\} from 'leadctl';\n/gm)];
  expect(imports).toHaveLength(1);
  const [statement, names] = imports[0] as RegExpMatchArray;
  const body = code.replace(statement, '');
  return `const {${names}} = require('leadctl');\n(async () => {\n${body}})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
}

describe('the examples of docs/library.md, from the installed package', () => {
  it('finds them, and knows what each prints', () => {
    expect(LIBRARY_EXAMPLES.length).toBe(PRINTS.length);
    for (const { line, code } of LIBRARY_EXAMPLES) {
      expect(
        PRINTS.filter(([matches]) => matches.test(code)),
        `docs/library.md:${line}`,
      ).toHaveLength(1);
    }
  });

  it.each(
    LIBRARY_EXAMPLES.flatMap(({ line, code }) => [
      [`docs/library.md:${line} as an ES module`, 'example.mjs', code] as const,
      [`docs/library.md:${line} as CommonJS`, 'example.cjs', code] as const,
    ]),
  )('%s', async (_, file, code) => {
    writeFileSync(join(consumer, file), file.endsWith('.cjs') ? asCommonJs(code) : code);
    const [, stdout, received, against] = PRINTS.find(([matches]) => matches.test(code)) ?? [];
    const server = against?.() ?? sandbox;
    const before = server.requests.length;
    const run = await execa('node', [file], { cwd: consumer, reject: false, env: sandboxEnv(server) });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(stdout as RegExp);
    expect(run.stdout).not.toContain(server.apiKey);
    received?.(server.requests.slice(before));
  });
});

describe('the library from the installed package', () => {
  it.each([
    ['CommonJS (require)', 'use.cjs', "const { LeadClient, LeadError, ProtocolError } = require('leadctl');"],
    ['ESM (import)', 'use.mjs', "import { LeadClient, LeadError, ProtocolError } from 'leadctl';"],
  ])('%s lists leads from the sandbox with plain typed values', async (_, file, load) => {
    writeFileSync(join(consumer, file), program(load));
    const run = await execa('node', [file], { cwd: consumer, reject: false, env: sandboxEnv() });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      total: 30,
      name: 'string',
      rating: 'number',
      ratingPlusOne: true,
      roundTrip: true,
      errorIsLeadError: true,
    });
  });

  it(
    'type-checks a strict consumer of either module system without casts, and catches a wrong use',
    async () => {
      const use = `import { LeadClient, type Lead, type DeprecationEvent, type RateLimitInfo, type RawResponse, ExactNumber, LeadError } from 'leadctl';
const client = new LeadClient({
  baseUrl: 'http://127.0.0.1:1',
  apiKey: 'k',
  headers: { 'X-Team': 'north' },
  logger: console,
  onRateLimit: async (info: RateLimitInfo) => info.waitMs < 60_000 && info.resetAt instanceof Date,
  hooks: { onDeprecation: (event: DeprecationEvent) => void event },
});
export async function answered(): Promise<[number, number, string | undefined]> {
  const { data, response } = await client.listLeads({ page: 1 }, { idempotencyKey: 'k-1', headers: { 'X-Trace': 't' } }).withResponse();
  return [data.meta.total, response.status, response.headers['x-request-id']];
}
export const supportId = (error: unknown): string | undefined => (error instanceof LeadError ? error.requestId : undefined);
export async function shout(): Promise<string[]> {
  const { leads } = await client.listLeads({ page: 1, limit: 5 });
  return leads.map((lead: Lead) => (lead.name !== null ? lead.name.toUpperCase() : ''));
}
export const nextRating = (lead: Lead): number => (lead.rating !== null ? lead.rating + 1 : 0);
export const idText = (lead: Lead): string => (lead.id instanceof ExactNumber ? lead.id.toBigInt().toString() : String(lead.id));
export const raw = (): Promise<RawResponse> => client.request('GET', new URL('leads', client.apiRoot));
`;
      writeFileSync(join(consumer, 'use-esm.mts'), use);
      writeFileSync(join(consumer, 'use-cjs.cts'), use);
      const tsconfig = (files: string[]) =>
        writeFileSync(
          join(consumer, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              target: 'ES2022',
              strict: true,
              noEmit: true,
              // A Node program has Node's types (AbortSignal, URL); the consumer folder has none installed.
              typeRoots: [join(ROOT, 'node_modules/@types')],
              types: ['node'],
            },
            files,
          }),
        );
      tsconfig(['use-esm.mts', 'use-cjs.cts']);
      const ok = await execa('node', [TSC, '-p', consumer], { cwd: consumer, reject: false });
      expect(ok.stdout + ok.stderr).toBe('');
      expect(ok.exitCode).toBe(0);
      // The types are real, not `any`: a wrong use fails to compile.
      writeFileSync(
        join(consumer, 'wrong.mts'),
        `${use}\nexport const wrong: number = client.apiRoot;\nexport const id: number = (await client.search({ query: 'a', location: 'b' }).withResponse()).response.requestId;\n`,
      );
      tsconfig(['wrong.mts']);
      const bad = await execa('node', [TSC, '-p', consumer], { cwd: consumer, reject: false });
      expect(bad.exitCode).not.toBe(0);
      expect(bad.stdout).toMatch(/wrong\.mts.*Type 'string' is not assignable to type 'number'/);
      expect(bad.stdout).toMatch(/wrong\.mts.*Type 'string \| undefined' is not assignable to type 'number'/);
    },
    SLOW,
  );
});
