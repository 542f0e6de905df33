// Builds dist/ from src/: an esbuild bundle (ESM, code-split) for the CLI, the library as one ESM and
// one CommonJS file, and one .d.ts of the library's public API.
//
// Every dependency is bundled, so the package has none: an install pulls leadctl alone
// (docs/library.md, "Packaging", has the figures and the reasons per library).
//
// Start-up is the point of the bundle (figures in bench/RESULTS.md):
// - Dependencies are bundled too. Resolving packages through node_modules and loading their many small
//   files costs far more than reading one chunk (commander: ~30 ms as a package, a few ms bundled).
// - undici is bundled through a cut-down entry (build-plugins.mjs) that loads only Agent and request.
// - Splitting keeps every lazily imported module (each command's run code with the client,
//   conf, ora, exceljs, the sandbox) in chunks that load only when a command's action imports them,
//   so `--version` and `--help` evaluate the launcher, commander and the command definitions, nothing
//   else. Every lazy import is an entry of its own, and esbuild puts each module shared by a different
//   set of entries in a chunk of its own: fewer lazy imports, fewer files for a run to load.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { legacyBufferPlugin, standInsPlugin, undiciCorePlugin } from './build-plugins.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// Built beside dist/ and moved in only when whole: a linked `leadctl` that starts meanwhile runs the
// previous build, never a half-written one (installBuild() says how).
const building = `dist.${process.pid}.building`;
process.on('exit', () => rmSync(building, { recursive: true, force: true }));
const TYPES_CACHE = 'node_modules/.cache/leadctl/types';

const common = {
  outdir: building,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Source maps are read only with --enable-source-maps: they cost nothing at start-up.
  sourcemap: 'linked',
  define: { __LEADCTL_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  metafile: true,
  // @commander-js/extra-typings is commander with inferred types: at run time it only re-exports
  // commander's classes (and would build a second unused program), so the bundle takes commander itself.
  alias: { '@commander-js/extra-typings': 'commander' },
};

rmSync(building, { recursive: true, force: true });
const builds = [];
// The CLI, split at its lazy imports. The library is built on its own: built together, every module
// both reach (errors, version, since, …) became a tiny shared chunk, each a separate file for the
// CLI to resolve and load at start-up (~0.3 ms apiece).
builds.push(
  await build({
    ...common,
    entryPoints: { cli: 'src/cli.ts' },
    plugins: [undiciCorePlugin, standInsPlugin(['commander', 'undici']), legacyBufferPlugin],
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  }),
);
// `leadctl mcp`'s server on its own (src/mcp/serve.ts says why), beside cli.js, which imports it.
builds.push(
  await build({
    ...common,
    define: { ...common.define, __LEADCTL_MCP_SCHEMAS__: await mcpToolSchemas() },
    entryPoints: { 'mcp-server': 'src/mcp/serve.ts' },
    plugins: [undiciCorePlugin, standInsPlugin(['undici', 'mcp'])],
    // Split too, so that what the server imports lazily (the sandbox of --sandbox, ora) is not parsed
    // at every start.
    splitting: true,
    chunkNames: 'chunks/mcp-[name]-[hash]',
  }),
);
assertMcpServerBeside(building);
// The library in one file: a program that imports it wants the client, which is most of it anyway.
// Once as ESM (`import`), once as CommonJS (`require`): a require() of the ESM file works only on
// Node 22.12+, and not at all while anything in it awaits at top level.
builds.push(
  await build({
    ...common,
    entryPoints: { index: 'src/index.ts' },
    plugins: [undiciCorePlugin, standInsPlugin(['undici'])],
  }),
);
builds.push(
  await build({
    ...common,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    entryPoints: { index: 'src/index.ts' },
    plugins: [undiciCorePlugin, standInsPlugin(['undici'])],
  }),
);
giveRequireToHelpers(building);
trimSourceMaps(building);
writeBundledLicenses(building, builds);
await writeLibraryTypes(building);
installBuild(building, 'dist');

/**
 * Swaps the whole new build in with two renames, so dist/ is missing only between them (microseconds,
 * where an in-place build left it empty or half-written for the ~30 s of a build).
 */
function installBuild(from, to) {
  const old = `${to}.${process.pid}.old`;
  rmSync(old, { recursive: true, force: true });
  try {
    renameSync(to, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}

/**
 * What `leadctl mcp` starts with, as JSON for `define`: the tools' JSON Schemas, which zod writes here
 * once (startJson() of src/mcp/schemas.ts) rather than at every start, and the MCP protocol versions.
 */
async function mcpToolSchemas() {
  const { outputFiles } = await build({
    entryPoints: ['src/mcp/schemas.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'warning',
  });
  const source = Buffer.from(outputFiles[0].text).toString('base64');
  const { startJson } = await import(`data:text/javascript;base64,${source}`);
  return JSON.stringify(startJson());
}

/**
 * The public API's declarations in one file (what src/index.ts exports, and the types those name),
 * the same text for both module systems: a .d.ts per source file shipped the CLI's and the sandbox's
 * internals too, and a CommonJS consumer needs declarations in a .d.cts of its own.
 */
async function writeLibraryTypes(dir) {
  const cached = typesKey();
  const types = readCached(cached) ?? (await generateTypes(cached));
  const imported = /^import .* from ['"]([^.'"][^'"]*)['"]/m.exec(types);
  if (imported) {
    // The install pulls no package, so a user's TypeScript cannot resolve this import: declare the
    // type in src/ (structurally) instead. package-install.test.ts fails on it too; the build goes on
    // so that everything else can still be tested.
    console.warn(`build: the library types import "${imported[1]}", which an install of leadctl lacks`);
  }
  writeFileSync(join(dir, 'index.d.ts'), types);
  writeFileSync(join(dir, 'index.d.cts'), types);
}

// dts-bundle-generator runs the whole TypeScript checker (~35 s of CPU, most of a build): its output is
// kept under a hash of everything it reads (src/, the tsconfigs, the lock file), so a rebuild of the
// same sources reuses it (in TYPES_CACHE).
function typesKey() {
  const hash = createHash('sha256');
  const files = readdirSync('src', { recursive: true }).map((file) => join('src', file));
  for (const file of [...files.sort(), 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) {
    if (!file.endsWith('.ts') && file.startsWith('src')) continue;
    hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  }
  return join(TYPES_CACHE, `${hash.digest('hex').slice(0, 32)}.d.ts`);
}
function readCached(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
async function generateTypes(cached) {
  const { generateDtsBundle } = await import('dts-bundle-generator');
  const [types] = generateDtsBundle(
    [{ filePath: 'src/index.ts', output: { noBanner: true, exportReferencedTypes: false } }],
    { preferredConfigPath: 'tsconfig.build.json' },
  );
  rmSync(TYPES_CACHE, { recursive: true, force: true });
  mkdirSync(TYPES_CACHE, { recursive: true });
  writeFileSync(cached, types);
  return types;
}

/**
 * The licences of the packages bundled into dist/ (their MIT/ISC/BSD terms ask that the notice travel
 * with the code), read from each package's own LICENSE file.
 */
function writeBundledLicenses(dir, results) {
  const packages = new Map();
  for (const { metafile } of results) {
    for (const input of Object.keys(metafile.inputs)) {
      const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) packages.set(match[1], input.slice(0, match.index + match[0].length));
    }
  }
  const sections = [...packages]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, root]) => {
      const { version: packageVersion, license } = JSON.parse(
        readFileSync(join(root, 'package.json'), 'utf8'),
      );
      const file = readdirSync(root).find((entry) => /^licen[cs]e/i.test(entry));
      const text = file ? readFileSync(join(root, file), 'utf8').trim() : `License: ${license}`;
      return `## ${name} ${packageVersion}\n\n${text}\n`;
    });
  const intro = '# Packages bundled into dist/\n\nleadctl ships these inside its own files.\n';
  writeFileSync(join(dir, 'THIRD-PARTY-LICENSES.md'), [intro, ...sections].join('\n'));
}

/**
 * Source maps are for debugging: with --enable-source-maps a stack trace names src/…ts and its line,
 * and a debugger shows leadctl's TypeScript. They keep the text of leadctl's own sources, not that of
 * the bundled packages (3.8 of the maps' 7.3 MB): that code is in the .js files as written, unminified,
 * and the maps still name each package file and line.
 */
function trimSourceMaps(dir) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(entry));
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    map.sourcesContent = map.sources.map((source, index) =>
      source.includes('node_modules/') ? null : map.sourcesContent[index],
    );
    writeFileSync(file, JSON.stringify(map));
  }
}

/** commands/mcp/command.ts finds the server as `./mcp-server.js` beside the file it is bundled into. */
function assertMcpServerBeside(dir) {
  const importers = readdirSync(dir, { recursive: true })
    .map(String)
    .filter(
      (name) => name.endsWith('.js') && readFileSync(join(dir, name), 'utf8').includes('"./mcp-server.js"'),
    );
  if (importers.length !== 1 || importers[0] !== 'cli.js') {
    throw new Error(
      `build: expected ${dir}/cli.js alone to load ./mcp-server.js, found ${importers.join(', ')}`,
    );
  }
}

/**
 * Bundled CommonJS packages (undici, commander, exceljs, ajv) require() Node's built-in modules
 * through esbuild's __require helper, which looks for a `require` in its own module; an ESM file has
 * none. So the file that defines the helper (one shared chunk; index.js, unsplit, has its own) gets
 * one, on its first line so that its source map stays right. (A banner would have put a createRequire
 * in every chunk, each a little start-up time.)
 */
function giveRequireToHelpers(dir) {
  const shim =
    "import { createRequire as __leadctlCreateRequire } from 'node:module'; const require = __leadctlCreateRequire(import.meta.url); ";
  let given = 0;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, String(entry));
    if (!file.endsWith('.js')) continue;
    const code = readFileSync(file, 'utf8');
    if (!code.includes('var __require = ')) continue;
    writeFileSync(file, shim + code);
    given += 1;
  }
  if (given < 3)
    throw new Error(
      `build: expected esbuild's __require helper in the CLI, the MCP server and the library, found ${given}`,
    );
}
