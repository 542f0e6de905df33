// One run's connection, shared by the commands and `leadctl mcp`: how global options become a ready client.
import { LeadClient } from './api/client.js';
import type { ClientHooks } from './api/client-options.js';
import { AuthError, type LeadError, NetworkError } from './api/errors.js';
import { maxBodyBytesFromEnv } from './api/parse-response.js';
import { proxyDispatcher, proxyFor, proxySettingsFrom } from './api/proxy.js';
import { NETWORK_FAILURES } from './api/retry.js';
import { redactUrl } from './api/url.js';
import { leadctlFor } from './config/keys.js';
import { LAYERS, missingSettingsError, resolveSettings, type Settings } from './config/settings.js';
import type { createProgram } from './global-options.js';
import type { ItemSinkOptions, OutputFlags } from './output/item-sink.js';
import { colorAllowed, colorForced, createUi, deprecationWarning, formatWait, type Ui } from './ui/ui.js';
import { ledgerKey } from './usage/ledger.js';
import { createUsageRecorder } from './usage/recorder.js';
import { VERSION } from './version.js';

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** The program every command is registered on; its commands' actions see the global options typed. */
export type Program = ReturnType<typeof createProgram>;

/** The global options as commander parsed them (`color`/`pager` are false with --no-color/--no-pager). */
export type GlobalOptions = Partial<ReturnType<Program['opts']>>;

export interface CommandContext {
  io: Io;
  globals: GlobalOptions;
  /** Aborted on the first SIGINT, SIGTERM or SIGHUP. */
  signal: AbortSignal;
}

/** Builds a command's context from the commander command whose action is running. */
export type ContextFor = (command: { optsWithGlobals(): GlobalOptions }) => CommandContext;

/** Where a run's base URL or key came from: cli.md's layers, or the in-process sandbox. */
export type Source = 'flag' | 'env' | 'config' | 'sandbox';

export function sourceText(key: 'api-key' | 'base-url', source: Source | undefined, profile: string): string {
  switch (source) {
    case 'flag':
      return `from ${LAYERS[key].flag}`;
    case 'env':
      return `from ${LAYERS[key].env}`;
    case 'sandbox':
      return 'from --sandbox: the built-in sandbox';
    default:
      return `from profile "${profile}"`;
  }
}

/** The second line of a 401: where the rejected key came from and how to change that source. */
export function rejectedKeyHint(source: Source | undefined, profile: string): string {
  const where = `the key came ${sourceText('api-key', source, profile)}`;
  switch (source) {
    case 'flag':
      return `${where}: check it, or leave --api-key out to use the stored key`;
    case 'env':
      return `${where}, which wins over the stored key: correct it, or unset LEADCTL_API_KEY`;
    case 'sandbox':
      return `${where}; it should always be accepted: please report this`;
    default:
      return `${where}: run: ${leadctlFor(profile)} config set api-key`;
  }
}

export type Session = ReturnType<typeof connect>;

export async function openUi(ctx: CommandContext): Promise<Ui> {
  const { globals, io } = ctx;
  return createUi({
    stderr: io.stderr,
    quiet: Boolean(globals.quiet),
    verbose: Boolean(globals.verbose) || io.env.LEADCTL_DEBUG === '1',
    color: colorAllowed(ctx),
    forceColor: colorForced(ctx),
    env: io.env,
  });
}

/** What a run would talk to, before any client exists: `auth status` reports it as it is. */
export interface Target {
  ui: Ui;
  settings: Settings;
  baseUrl?: string;
  baseUrlSource?: Source;
  apiKey?: string;
  apiKeySource?: Source;
  env: NodeJS.ProcessEnv;
  /** Stops the in-process sandbox, if --sandbox started one. */
  close(): Promise<void>;
}

export async function resolveTarget(ctx: CommandContext): Promise<Target> {
  const ui = await openUi(ctx);
  const { globals, io } = ctx;
  const settings = await resolveSettings(globals, io.env);
  for (const warning of settings.warnings) ui.warn(warning);
  const target = targetOf(ui, settings, io.env);
  if (!globals.sandbox) return target;
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({});
  ui.debug(`sandbox: serving the Lead Data API on ${sandbox.url}`);
  return {
    ...target,
    baseUrl: sandbox.url,
    baseUrlSource: 'sandbox',
    apiKey: sandbox.apiKey,
    apiKeySource: 'sandbox',
    close: () => sandbox.close(),
  };
}

/** What resolved settings talk to (no sandbox to stop). */
export function targetOf(ui: Ui, settings: Settings, env: NodeJS.ProcessEnv): Target {
  const { baseUrl, baseUrlSource, apiKey, apiKeySource } = settings;
  return { ui, settings, baseUrl, baseUrlSource, apiKey, apiKeySource, env, close: async () => {} };
}

/** The client for a target; a missing base URL or key (both named at once) is an error. */
export function connect(target: Target, extraHooks: ClientHooks = {}) {
  const { baseUrl, apiKey, settings, ui } = target;
  if (!baseUrl || !apiKey)
    throw missingSettingsError({ baseUrl: !baseUrl, apiKey: !apiKey, profile: settings.profile });
  const usage = createUsageRecorder({
    env: target.env,
    key: ledgerKey(settings.profile, baseUrl, target.baseUrlSource),
    plan: settings.plan,
    warn: (message) => ui.warn(message),
  });
  const timeoutMs = settings.timeoutSec * 1000;
  const maxBodyBytes = maxBodyBytesFromEnv(target.env.LEADCTL_MAX_BODY_BYTES);
  // Undocumented, for tests only: a shorter retry backoff, so e2e tests need not sleep through 0.5-8 s.
  const backoffBaseMs = Number(target.env.LEADCTL_TEST_BACKOFF_BASE_MS) || undefined;
  const proxies = proxySettingsFrom(target.env);
  // The in-process sandbox is this machine: never through a proxy. A bad base URL is the client's to refuse.
  const direct = target.baseUrlSource === 'sandbox' || !URL.canParse(baseUrl.trim());
  const proxy = direct ? undefined : proxyFor(new URL(baseUrl.trim()), proxies);
  if (proxy) ui.debug(`proxy: connecting through ${redactUrl(proxy.url)} (from ${proxy.from})`);
  const dispatcher = proxy ? proxyDispatcher(proxies, { connections: 16, timeoutMs }) : undefined;
  const client = new LeadClient({
    baseUrl,
    apiKey,
    ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
    ...(backoffBaseMs === undefined ? {} : { backoffBaseMs }),
    ...(dispatcher ? { dispatcher } : {}),
    timeoutMs,
    retries: settings.retries,
    maxWaitMs: settings.maxWaitSec * 1000,
    userAgent: `leadctl/${VERSION}`,
    hooks: allHooks(reportingHooks(ui), usage.hooks, extraHooks, {
      onError: (error) => addRunHints(error, target, proxy),
    }),
  });
  return {
    client,
    ui,
    settings,
    /** This run's requests, counted for the usage ledger and written to it by close(). */
    usage,
    close: async () => {
      await usage.flush();
      await client.close();
      await dispatcher?.close();
      await target.close();
    },
  };
}

/** What the output layer takes of a run that writes items: its ui, and the profile's format and bom. */
export function itemOutput(
  session: Session,
  ctx: CommandContext,
  flags: OutputFlags & { append?: boolean },
  resource: ItemSinkOptions['resource'],
): ItemSinkOptions {
  return {
    ctx,
    messages: session.ui,
    flags,
    resource,
    storedFormat: session.settings.format,
    storedBom: session.settings.bom,
    ...(flags.append ? { append: true } : {}),
  };
}

/** `extraHooks` are called beside the ones that report to the user: a batch counts requests with them. */
export async function openSession(ctx: CommandContext, extraHooks: ClientHooks = {}): Promise<Session> {
  return connectOrClose(await resolveTarget(ctx), extraHooks);
}

/** connect(), or the target closed (its sandbox stopped) when that fails. */
export async function connectOrClose(target: Target, extraHooks: ClientHooks = {}): Promise<Session> {
  try {
    return connect(target, extraHooks);
  } catch (error) {
    await target.close();
    throw error;
  }
}

function reportingHooks(ui: Ui): ClientHooks {
  let deprecationWarned = false;
  return {
    onAttempt: (e) => {
      const outcome = e.status === undefined ? (e.error ?? 'failed') : String(e.status);
      ui.debug(`${e.method} ${e.url} -> ${outcome} in ${Math.round(e.ms)} ms (attempt ${e.attempt})`);
    },
    onWait: (e) => {
      if (e.reason === 'rate-limited') {
        ui.countdown(
          e.waitMs,
          (msLeft) => `Rate limited by the server (${e.failure}); retrying ${formatWait(msLeft)}`,
        );
      } else {
        const from = e.reason === 'network' ? capitalize(e.failure) : `${e.failure} from the server`;
        ui.notice(`${from}; retrying ${formatWait(e.waitMs)} (retry ${e.retry} of ${e.maxRetries})`);
      }
    },
    onDeprecation: (e) => {
      // Once per run, whichever client saw it first.
      if (deprecationWarned) return;
      deprecationWarned = true;
      ui.warn(deprecationWarning(e, Date.now()));
    },
  };
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const HOOKS = ['beforeAttempt', 'onAttempt', 'onWait', 'onDeprecation', 'onError'] as const;

/** Each hook calls the same hook of every set, in order. */
function allHooks(...sets: ClientHooks[]): ClientHooks {
  const call = (name: (typeof HOOKS)[number]) => (event: unknown) => {
    for (const set of sets) (set[name] as ((event: unknown) => void) | undefined)?.(event);
  };
  return Object.fromEntries(HOOKS.map((name) => [name, call(name)]));
}

/** What only this run knows: where a rejected key came from, and that a refused connection was the proxy. */
function addRunHints(error: LeadError, target: Target, proxy: { url: string; from: string } | undefined) {
  if (error instanceof AuthError && error.status === 401) {
    error.cliHint = rejectedKeyHint(target.apiKeySource, target.settings.profile);
  }
  if (proxy && error instanceof NetworkError && ['refused', 'dns', 'unreachable'].includes(error.kind)) {
    const after = (error.attempts ?? 0) > 1 ? ` after ${error.attempts} attempts` : '';
    error.message = `cannot reach the proxy ${redactUrl(proxy.url)} that ${proxy.from} names (${NETWORK_FAILURES[error.kind]})${after}`;
    error.cliHint = `check ${proxy.from}, and that the proxy is running; NO_PROXY lists hosts to reach directly`;
  }
}
