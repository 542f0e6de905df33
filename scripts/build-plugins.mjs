// esbuild plugins of scripts/build.mjs: they keep code that leadctl never runs out of the bundle, since
// every kilobyte the CLI loads is parsed at start-up (figures in bench/RESULTS.md).
import { readFileSync } from 'node:fs';

// undici's index.js loads every feature it has (fetch, WebSocket, EventSource, mocks, caches, proxies):
// ~40 ms of CPU at start-up, of which the client uses only `Agent` and `request` (and, behind a proxy,
// `EnvHttpProxyAgent`, loaded on first use). This entry exports just those, set up exactly as undici 7's index.js does (makeDispatcher). `request` is called with
// the Agent as `this` (it only needs `dispatch`), so the other Dispatcher API methods are left out.
const undiciCore = `
const Agent = require('undici/lib/dispatcher/agent.js');
const request = require('undici/lib/api/api-request.js');
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

module.exports = {
  Agent,
  request: makeDispatcher(request),
  // Only for HTTPS_PROXY and friends: required on first use, so a run without a proxy never runs it.
  get EnvHttpProxyAgent() {
    // ProxyAgent opens its CONNECT tunnel with Dispatcher#connect, which undici's index.js adds.
    const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
    Dispatcher.prototype.connect ??= require('undici/lib/api/api-connect.js');
    return require('undici/lib/dispatcher/env-http-proxy-agent.js');
  },
};
`;

/** Points `import … from 'undici'` at undiciCore, for the undici major it was written against. */
export const undiciCorePlugin = {
  name: 'undici-core',
  setup(build) {
    if (!undiciIsMajor7()) return;
    build.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici-core', namespace: 'leadctl' }));
    build.onLoad({ filter: /^undici-core$/, namespace: 'leadctl' }, () => ({
      contents: undiciCore,
      loader: 'js',
      resolveDir: process.cwd(),
    }));
  },
};

function undiciIsMajor7() {
  const undici = JSON.parse(readFileSync('node_modules/undici/package.json', 'utf8'));
  if (undici.version.startsWith('7.')) return true;
  console.warn(`build: undici ${undici.version} is not 7.x; bundling its full entry point`);
  return false;
}

// Modules that bundled packages require at load time but leadctl never uses. Each is replaced by a
// stand-in: the real code is neither parsed nor run at start-up, and using it anyway fails loudly.
// - undici's HTTP/2 client: only reached when a TLS server negotiates h2, which undici 7 offers only
//   with `allowH2`, which leadctl never sets. Loading it pulls in node:http2 (with tls and crypto),
//   ~9 ms of every run.
// - undici's fetch body code (FormData, multipart): only for FormData request bodies; we send JSON.
// - commander's node:child_process: only for git-style executable subcommands, which leadctl has
//   none of. Loaded lazily instead, on first use.
const STAND_INS = [
  {
    dependency: 'undici',
    importer: /node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    path: './client-h2.js',
    contents: unused('undici HTTP/2 (allowH2)'),
  },
  {
    dependency: 'undici',
    importer: /node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    path: '../web/fetch/body.js',
    contents: unused('undici FormData request bodies'),
  },
  {
    dependency: 'commander',
    importer: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    path: 'node:child_process',
    contents: `module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });`,
  },
  // `leadctl mcp` (the MCP SDK's server): ajv (with ajv-formats and fast-uri) is the default check of
  // an elicitation answer against its form, and leadctl asks with an empty form and gives the Server a
  // validator of its own; zod 3 and zod-to-json-schema serve zod 3 tool schemas, and ours are zod 4;
  // zod's error messages in every language but English are never shown. ~750 KB the server parsed at
  // every start.
  {
    dependency: 'mcp',
    importer: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/,
    path: '../validation/ajv-provider.js',
    contents: `export class AjvJsonSchemaValidator { constructor() { throw new Error('leadctl: ajv is left out of this build'); } }`,
  },
  {
    dependency: 'mcp',
    importer: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]zod-compat\.js$/,
    path: 'zod/v3',
    contents: `export function object() { throw new Error('leadctl: zod 3 is left out of this build'); }`,
  },
  {
    dependency: 'mcp',
    importer: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]zod-json-schema-compat\.js$/,
    path: 'zod-to-json-schema',
    contents: `export function zodToJsonSchema() { throw new Error('leadctl: zod-to-json-schema is left out of this build'); }`,
  },
  {
    dependency: 'mcp',
    importer: /[\\/]zod[\\/]v4[\\/](classic|mini|core)[\\/](external|index)\.js$/,
    path: '../locales/index.js',
    contents: 'export {};',
  },
];

function unused(feature) {
  return `module.exports = new Proxy(function unused() {}, {
  get: (_, key) => { throw new Error('leadctl: ${feature} is left out of this build (reading ' + String(key) + ')'); },
  apply: () => { throw new Error('leadctl: ${feature} is left out of this build'); },
});`;
}

/** The stand-ins for `dependencies` (the bundled packages of this build: the library has no commander). */
export function standInsPlugin(dependencies) {
  const wanted = STAND_INS.filter((standIn) => dependencies.includes(standIn.dependency));
  return {
    name: 'stand-ins',
    setup(build) {
      const seen = new Set();
      for (const standIn of wanted) {
        const index = STAND_INS.indexOf(standIn);
        const filter = new RegExp(`^${standIn.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
        build.onResolve({ filter }, (args) => {
          if (!standIn.importer.test(args.importer)) return undefined;
          seen.add(standIn);
          return { path: `stand-in-${index}`, namespace: 'leadctl-stand-in' };
        });
      }
      build.onLoad({ filter: /^stand-in-\d+$/, namespace: 'leadctl-stand-in' }, (args) => ({
        contents: STAND_INS[Number(args.path.slice('stand-in-'.length))].contents,
        loader: 'js',
      }));
      // A stand-in that matched nothing means a dependency moved its code: say so rather than ship it.
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        const missed = wanted.filter((standIn) => !seen.has(standIn));
        if (missed.length > 0) {
          throw new Error(`build: stand-ins matched nothing: ${missed.map((s) => s.path).join(', ')}`);
        }
      });
    },
  };
}

// archiver-utils 2 (under exceljs's streaming writer, for --format xlsx) still calls `new Buffer()`,
// which Node deprecates with a DEP0005 warning on stderr the first time code outside node_modules
// calls it: bundled, archiver's code is outside. The same calls written as Buffer.alloc/Buffer.from.
// (archiver-utils 3 fixed them, but pipes exceljs's own stream type, which breaks the writer.)
const LEGACY_BUFFER_CALLS = [
  ['new Buffer(size)', 'Buffer.alloc(size)'],
  ['new Buffer(0)', 'Buffer.alloc(0)'],
  ['new Buffer(source)', 'Buffer.from(source)'],
];

export const legacyBufferPlugin = {
  name: 'legacy-buffer',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]archiver-utils[\\/]index\.js$/ }, (args) => {
      let contents = readFileSync(args.path, 'utf8');
      // archiver-utils 3 (under zip-stream) has none of them: loaded as it is.
      if (!contents.includes('new Buffer(')) return undefined;
      for (const [call, replacement] of LEGACY_BUFFER_CALLS)
        contents = contents.replaceAll(call, replacement);
      if (contents.includes('new Buffer(')) throw new Error(`build: ${args.path} has another new Buffer()`);
      return { contents, loader: 'js' };
    });
  },
};
