import { describe, expect, it } from 'vitest';
import { codeCacheDir, codeCacheName } from '../../src/startup/code-cache.js';

describe('codeCacheDir', () => {
  it('follows XDG_CACHE_HOME, else ~/.cache', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/leadctl');
    expect(codeCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/leadctl');
  });

  it('ignores a relative XDG_CACHE_HOME, as the XDG spec says', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: 'cache', HOME: '/home/u' })).toBe('/home/u/.cache/leadctl');
  });

  it('is off with LEADCTL_NO_CODE_CACHE=1', () => {
    expect(codeCacheDir({ LEADCTL_NO_CODE_CACHE: '1', HOME: '/home/u' })).toBeUndefined();
    expect(codeCacheDir({ LEADCTL_NO_CODE_CACHE: '0', HOME: '/home/u' })).toBe('/home/u/.cache/leadctl');
  });
});

describe('codeCacheName', () => {
  it('names the bundle (with its content hash), this Node and this CPU', () => {
    expect(codeCacheName('/opt/leadctl/dist/chunks/undici-347AC083.cjs')).toBe(
      `undici-347AC083-node-${process.version}-${process.arch}.v8cache`,
    );
  });
});

describe('codeCacheDir without a home folder', () => {
  it('is none rather than a folder relative to wherever the user is', () => {
    expect(codeCacheDir({ HOME: 'relative/home' })).toBeUndefined();
  });
});
