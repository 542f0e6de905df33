// Loads a CommonJS bundle through V8's code cache, kept in the user's cache folder: Node 20 has no
// compile cache for modules (Node 22's module.enableCompileCache), so every run would parse undici
// again and compile each function it calls on first use. With the cache a request-making run starts
// 5-18 ms sooner on this machine (README, Performance).
//
// The cache is an optimisation only: any failure to read or write it is ignored, and V8 itself checks
// that the data fits this V8, these flags and a source of this length (a mismatch is "rejected" and the
// script compiles as usual). The file name carries the bundle's content hash, this Node and this CPU,
// so a different build never meets another's cache. bin/leadctl.js sets the V8 flags of every run that
// loads this before it loads; a program that calls dist/cli.js main() itself sets none, so its caches
// and the launcher's would replace each other: still correct, only written again.
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { xdgLeadctlDir } from '../config/paths.js';

const CACHE_SUFFIX = '.v8cache';

/** `$XDG_CACHE_HOME/leadctl`, else `~/.cache/leadctl`; none when LEADCTL_NO_CODE_CACHE=1. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.LEADCTL_NO_CODE_CACHE === '1') return undefined;
  try {
    const dir = xdgLeadctlDir(env, 'XDG_CACHE_HOME', '.cache');
    // Without a home folder the path would be relative, a cache in whatever folder the user is in.
    return isAbsolute(dir) ? dir : undefined;
  } catch {
    // os.homedir() throws where the user has no passwd entry: then there is simply no cache.
    return undefined;
  }
}

/** e.g. `undici-3F2A9C1B-node-v20.20.2-x64.v8cache` for `undici-3F2A9C1B.cjs`. */
export function codeCacheName(bundleFile: string): string {
  const name = basename(bundleFile).replace(/\.c?js$/, '');
  return `${name}-node-${process.version}-${process.arch}${CACHE_SUFFIX}`;
}

/** Runs the CommonJS file at `url` and returns its exports, compiled from the code cache if it fits. */
export function loadCommonJs(url: URL, env: NodeJS.ProcessEnv = process.env): unknown {
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  const dir = codeCacheDir(env);
  const cacheFile = dir === undefined ? undefined : join(dir, codeCacheName(file));
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  // The wrapper stays on the first line, so line numbers in stack traces match the file.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // Written as the run ends, so that it also holds every function the run compiled on first use
    // (the request path), not just the top level. Written once: later runs load it.
    process.once('beforeExit', () => writeCache(script, cacheFile));
  }
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Atomic (a temporary file renamed into place), private to the user, and it removes stale caches. */
function writeCache(script: Script, cacheFile: string): void {
  const dir = dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cacheFile);
    removeStaleCaches(dir, basename(cacheFile));
  } catch {
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing was written.
    }
  }
}

/** Caches of earlier builds or other Node versions of the same bundle name (an upgrade leaves them). */
function removeStaleCaches(dir: string, keep: string): void {
  const bundle = keep.slice(0, keep.indexOf('-'));
  for (const entry of readdirSync(dir)) {
    if (entry !== keep && entry.startsWith(`${bundle}-`) && entry.endsWith(CACHE_SUFFIX)) {
      unlinkSync(join(dir, entry));
    }
  }
}
