// Proxies the way curl reads them (docs/retries.md, "Proxies, certificates and compression"). The library
// reads no environment: the CLI passes its environment here and hands the dispatcher to LeadClient.
import { type Dispatcher, EnvHttpProxyAgent } from 'undici';
import { UsageError } from './errors.js';
import { redactUrl } from './url.js';

export interface ProxySettings {
  httpProxy?: { url: string; from: string } | undefined;
  httpsProxy?: { url: string; from: string } | undefined;
  /** NO_PROXY as given: hosts, `.domain`, `*.domain`, `host:port`, or `*` for none. */
  noProxy: string;
}

function pick(env: Readonly<Record<string, string | undefined>>, names: readonly string[]) {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) {
      checkProxyUrl(value, name);
      return { url: value, from: name };
    }
  }
  return undefined;
}

export function proxySettingsFrom(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  return {
    httpProxy: pick(env, ['http_proxy', 'HTTP_PROXY']),
    httpsProxy: pick(env, ['https_proxy', 'HTTPS_PROXY']),
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

function checkProxyUrl(value: string, name: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${name} is not a proxy address leadctl can use: "${redactUrl(value)}"`,
      'give it as http://host:port (or https://host:port); unset it to connect directly',
    );
  }
}

/**
 * Which proxy a request to `target` goes through, if any: the rule of undici's EnvHttpProxyAgent
 * (exact host or a subdomain of a NO_PROXY entry, its port if it names one), so `--verbose` can say it.
 */
export function proxyFor(target: URL, settings: ProxySettings): { url: string; from: string } | undefined {
  const proxy =
    target.protocol === 'https:' ? (settings.httpsProxy ?? settings.httpProxy) : settings.httpProxy;
  if (proxy === undefined) return undefined;
  const noProxy = settings.noProxy.trim();
  if (noProxy === '*') return undefined;
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? (parsed[1] as string) : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return proxy;
}

/** undici's EnvHttpProxyAgent with the settings given (never its own look at process.env). */
export function proxyDispatcher(
  settings: ProxySettings,
  agentOptions: { connections: number; timeoutMs: number },
): Dispatcher {
  return new EnvHttpProxyAgent({
    // An empty string means "no proxy" to undici, where undefined would send it to process.env.
    httpProxy: settings.httpProxy?.url ?? '',
    httpsProxy: settings.httpsProxy?.url ?? settings.httpProxy?.url ?? '',
    noProxy: settings.noProxy,
    connections: agentOptions.connections,
    headersTimeout: agentOptions.timeoutMs,
    bodyTimeout: agentOptions.timeoutMs,
    connectTimeout: Math.min(agentOptions.timeoutMs, 10_000),
  });
}
