// Builds dist/ from src/: an esbuild bundle (ESM, code-split) plus .d.ts files for the library face.
//
// Start-up is the point of the bundle (figures in bench/RESULTS.md):
// - Dependencies are bundled too. Resolving packages through node_modules and loading their many small
//   files costs far more than reading one chunk (commander: ~30 ms as a package, a few ms bundled).
// - Splitting keeps every lazily imported module (the client with undici and zod, conf, ora, cli-table3,
//   the sandbox) in chunks that load only when a command's action imports them, so `--version` and
//   `--help` evaluate the launcher, commander and the command definitions, nothing else.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { standInsPlugin, undiciCorePlugin } from './build-plugins.mjs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// Bundled CommonJS packages (undici, commander, cli-table3, ajv) require() Node's built-in modules; an
// ESM chunk has no `require`, so every chunk gets a real one.
const requireShim = [
  "import { createRequire as __leadctlCreateRequire } from 'node:module';",
  'const require = __leadctlCreateRequire(import.meta.url);',
].join('\n');

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: requireShim },
  plugins: [undiciCorePlugin, standInsPlugin],
  // Source maps are read only with --enable-source-maps: they cost nothing at start-up.
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __LEADCTL_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
