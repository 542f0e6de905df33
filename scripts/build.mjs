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

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

// Bundled CommonJS packages (undici, commander, cli-table3, ajv) require() Node's built-in modules; an
// ESM chunk has no `require`, so every chunk gets a real one.
const requireShim = [
  "import { createRequire as __leadctlCreateRequire } from 'node:module';",
  'const require = __leadctlCreateRequire(import.meta.url);',
].join('\n');

// undici's index.js loads every feature it has (fetch, WebSocket, EventSource, mocks, caches, proxies):
// ~40 ms of CPU at start-up, of which the client uses only `Agent` and `request`. This entry exports
// just those two, set up exactly as undici 7's index.js does (Dispatcher methods, makeDispatcher).
const undiciCore = `
const Agent = require('undici/lib/dispatcher/agent.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
const api = require('undici/lib/api/index.js');
const util = require('undici/lib/core/util.js');
const { InvalidArgumentError } = require('undici/lib/core/errors.js');
const { getGlobalDispatcher } = require('undici/lib/global.js');

function makeDispatcher(fn) {
  return (url, opts, handler) => {
    if (typeof opts === 'function') {
      handler = opts;
      opts = null;
    }
    if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
      throw new InvalidArgumentError('invalid url');
    }
    if (opts != null && typeof opts !== 'object') {
      throw new InvalidArgumentError('invalid opts');
    }
    if (opts && opts.path != null) {
      if (typeof opts.path !== 'string') {
        throw new InvalidArgumentError('invalid opts.path');
      }
      let path = opts.path;
      if (!opts.path.startsWith('/')) {
        path = '/' + path;
      }
      url = new URL(util.parseOrigin(url).origin + path);
    } else {
      if (!opts) {
        opts = typeof url === 'object' ? url : {};
      }
      url = util.parseURL(url);
    }
    const { agent, dispatcher = getGlobalDispatcher() } = opts;
    if (agent) {
      throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
    }
    return fn.call(dispatcher, {
      ...opts,
      origin: url.origin,
      path: url.search ? url.pathname + url.search : url.pathname,
      method: opts.method || (opts.body ? 'PUT' : 'GET'),
    }, handler);
  };
}

Object.assign(Dispatcher.prototype, api);
module.exports = { Agent, request: makeDispatcher(api.request) };
`;

/** Points `import … from 'undici'` at undiciCore, for the undici major it was written against. */
const undiciCorePlugin = {
  name: 'undici-core',
  setup(build) {
    const undici = JSON.parse(readFileSync('node_modules/undici/package.json', 'utf8'));
    if (!undici.version.startsWith('7.')) {
      console.warn(`build: undici ${undici.version} is not 7.x; bundling its full entry point`);
      return;
    }
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici-core', namespace: 'leadctl' }));
    build.onLoad({ filter: /^undici-core$/, namespace: 'leadctl' }, () => ({
      contents: undiciCore,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

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
  plugins: [undiciCorePlugin],
  // Source maps are read only with --enable-source-maps: they cost nothing at start-up.
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __LEADCTL_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
});
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
