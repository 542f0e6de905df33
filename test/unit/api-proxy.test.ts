// Which proxy a base URL goes through, read as curl (and undici's EnvHttpProxyAgent) read the variables.
import { describe, expect, it } from 'vitest';
import { proxyFor, proxySettingsFrom } from '../../src/api/proxy.js';
import { redactUrl } from '../../src/api/url.js';

const via = (target: string, env: Record<string, string>) =>
  proxyFor(new URL(target), proxySettingsFrom(env));

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https, HTTP_PROXY for http, lower case first', () => {
    const env = {
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:1',
      HTTP_PROXY: 'http://plain:1',
    };
    expect(via('https://api.example.com', env)).toEqual({ url: 'http://lower:1', from: 'https_proxy' });
    expect(via('http://api.example.com', env)).toEqual({ url: 'http://plain:1', from: 'HTTP_PROXY' });
    expect(via('https://api.example.com', { HTTP_PROXY: 'http://plain:1' })?.from).toBe('HTTP_PROXY');
    expect(via('https://api.example.com', {})).toBeUndefined();
  });

  it('goes direct for NO_PROXY hosts, their subdomains, a matching port, and *', () => {
    const env = (noProxy: string) => ({ HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy });
    expect(via('https://api.example.com', env('example.com'))).toBeUndefined();
    expect(via('https://api.example.com', env('.example.com'))).toBeUndefined();
    expect(via('https://api.example.com', env('*.example.com'))).toBeUndefined();
    expect(via('https://api.example.com', env('example.com:443'))).toBeUndefined();
    expect(via('https://api.example.com', env('example.com:8443'))).toBeDefined();
    expect(via('https://badexample.com', env('example.com'))).toBeDefined();
    expect(via('https://api.example.com', env('*'))).toBeUndefined();
    expect(
      via('https://api.example.com', { HTTPS_PROXY: 'http://p:1', no_proxy: 'other.org, example.com' }),
    ).toBeUndefined();
  });

  it('refuses a proxy variable that is not an http(s) URL, without echoing its password', () => {
    expect(() => proxySettingsFrom({ HTTPS_PROXY: 'socks5://u:secret@p:1' })).toThrow(
      /^HTTPS_PROXY is not a proxy address leadctl can use: "socks5:\/\/\*\*\*@p:1"$/,
    );
  });
});

describe('redactUrl', () => {
  it('hides user info, query and fragment, and escapes control characters', () => {
    expect(redactUrl('https://user:pw@api.example.com/x?token=t#frag')).toBe(
      'https://***@api.example.com/x?…#…',
    );
    expect(redactUrl('https://api.example.com/')).toBe('https://api.example.com/');
    expect(redactUrl('not a url //u:p@h?token=t')).toBe('***@h?…');
    // Not a URL (port out of range), or no server address: whatever stands before the last @ goes.
    expect(redactUrl('https://user:hunter2@host:99999')).toBe('https://***@host:99999');
    expect(redactUrl('https://us er:hun@ter2@host:99999/x?k=s t')).toBe('https://***@host:99999/x?…');
    expect(redactUrl('user:hunter2@api.example.com')).toBe('***@api.example.com');
    expect(redactUrl('bad\r\nurl')).toBe('bad\\r\\nurl');
  });
});
