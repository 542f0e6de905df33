// `auth login`: a base URL and key, checked with one request before they are stored; asked on a terminal, or
// the key from stdin with --with-token (as gh). `auth status`: one request, whose exit code is the command's.
import {
  AuthError,
  ForbiddenError,
  LeadError,
  NetworkError,
  ServerError,
  UsageError,
} from '../../api/errors.js';
import { leadctlFor, parseConfigValue } from '../../config/keys.js';
import { configFile } from '../../config/paths.js';
import {
  DEFAULT_PROFILE,
  requireProfile,
  selectedProfileName,
  storedValue,
  updateProfile,
} from '../../config/profiles.js';
import { resolveSettings } from '../../config/settings.js';
import { readConfigFile } from '../../config/store.js';
import {
  type CommandContext,
  connect,
  connectOrClose,
  openUi,
  resolveTarget,
  type Source,
  sourceText,
  targetOf,
} from '../../session.js';
import { maskApiKey } from '../../text/secrets.js';
import { askLine, readSecret } from '../../ui/prompts.js';
import { safeForStderr } from '../../ui/ui.js';
import type { LoginFlags } from './command.js';

export async function runAuthLogin(flags: LoginFlags, ctx: CommandContext): Promise<void> {
  const { io, globals } = ctx;
  if (globals.sandbox) {
    throw new UsageError(
      'auth login stores a base URL and key, and --sandbox has neither to keep',
      'try it with: leadctl auth status --sandbox',
    );
  }
  const profile = selectedProfileName(globals.profile, io.env);
  const leadctl = leadctlFor(profile);
  const configPath = configFile(io.env);
  // A broken config is reported before the user types anything.
  const file = readConfigFile(configPath);
  const exists = Object.hasOwn(file.profiles, profile);
  const stored = exists ? (file.profiles[profile] ?? {}) : {};
  const terminal = Boolean(io.stdin.isTTY) && !flags.withToken;

  const baseUrl = await chooseBaseUrl(ctx, { stored, profile, configPath, terminal, leadctl });
  if (!flags.withToken && !io.stdin.isTTY) {
    throw new UsageError(
      'auth login asks for the key on a terminal, and standard input is not one',
      `pipe the key in: echo "$LEADCTL_API_KEY" | ${leadctl} auth login --with-token`,
    );
  }
  const readKey = async () =>
    parseConfigValue('api-key', await readSecret(io.stdin, 'API key: ', io.stderr, ctx.signal), {
      kind: 'argument',
    });
  let apiKey = terminal ? undefined : await readKey();
  while (apiKey === undefined) apiKey = await unlessRefused(ctx, readKey);

  // Checked with the run's timeouts: a new profile's are the defaults and the flags.
  const settings = await resolveSettings(
    { ...globals, apiKey, baseUrl, profile: exists ? profile : DEFAULT_PROFILE },
    { ...io.env, LEADCTL_PROFILE: undefined },
  );
  const session = connect(targetOf(await openUi(ctx), { ...settings, profile }, io.env));
  const request = `GET ${session.client.apiRoot}leads?limit=1`;
  try {
    await session.client.listLeads({ limit: 1 }, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof AuthError)
      error.cliHint = `nothing was stored: check the key, then run: ${leadctl} auth login`;
    throw error;
  } finally {
    await session.close();
  }
  const path = await updateProfile(io.env, profile, (values) => {
    values['base-url'] = baseUrl;
    values['api-key'] = apiKey;
  });
  say(ctx, `The server accepted the key (this check spent 1 request: ${request}).`);
  say(ctx, `Saved base-url ${baseUrl} and api-key ${maskApiKey(apiKey)} for profile "${profile}" in ${path}`);
  if (io.env.LEADCTL_API_KEY?.trim()) {
    say(ctx, 'leadctl: note: LEADCTL_API_KEY is set and wins over the stored key: unset it to use this one');
  }
}

/** --base-url, else LEADCTL_BASE_URL, else the profile's, else asked on a terminal; else an error. */
async function chooseBaseUrl(
  ctx: CommandContext,
  at: {
    stored: Record<string, unknown>;
    profile: string;
    configPath: string;
    terminal: boolean;
    leadctl: string;
  },
): Promise<string> {
  const { io, globals } = ctx;
  if (globals.baseUrl !== undefined) {
    return parseConfigValue('base-url', globals.baseUrl, { kind: 'flag', name: '--base-url' });
  }
  const fromEnv = io.env.LEADCTL_BASE_URL?.trim();
  if (fromEnv) return parseConfigValue('base-url', fromEnv, { kind: 'env', name: 'LEADCTL_BASE_URL' });
  const stored = storedValue(at.stored, 'base-url', { profile: at.profile, path: at.configPath });
  if (stored !== undefined) return stored;
  if (!at.terminal) {
    throw new UsageError(
      `auth login needs the API's base URL, and profile "${at.profile}" has none`,
      `give it: ${at.leadctl} auth login --base-url <url>${ctx.io.stdin.isTTY ? '' : ' --with-token'}`,
    );
  }
  for (;;) {
    const typed = await askLine(ctx.io, 'API base URL (e.g. https://api.example.com): ', ctx.signal);
    if (typed === undefined) throw new UsageError('no base URL entered', `run: ${at.leadctl} auth login`);
    const url = await unlessRefused(ctx, () => parseConfigValue('base-url', typed, { kind: 'argument' }));
    if (url !== undefined) return url;
  }
}

// A refused value is said and the caller asks again: a login that ended there would leave the person typing
// the key into the shell and its history.
async function unlessRefused<T>(ctx: CommandContext, get: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await get();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(ctx, `${safeForStderr(error.message)}; try again (Ctrl-C to stop)`);
    return undefined;
  }
}

/** `auth logout`: the stored key goes; the base URL and other settings stay. */
export async function runAuthLogout(ctx: CommandContext): Promise<void> {
  const { io, globals } = ctx;
  const profile = selectedProfileName(globals.profile, io.env);
  const configPath = configFile(io.env);
  const stored = requireProfile(readConfigFile(configPath), profile);
  const key = storedValue(stored, 'api-key', { profile, path: configPath });
  if (key === undefined) {
    say(ctx, `Profile "${profile}" has no stored API key; nothing was removed.`);
  } else {
    const path = await updateProfile(io.env, profile, (values) => {
      delete values['api-key'];
    });
    say(ctx, `Removed the API key ${maskApiKey(key)} from profile "${profile}" in ${path}.`);
  }
  if (io.env.LEADCTL_API_KEY?.trim()) {
    say(ctx, 'leadctl: note: LEADCTL_API_KEY is still set in this environment, and runs will use it');
  }
}

/** What happened, for a person: stderr, so that stdout stays data (there is none here). */
function say(ctx: CommandContext, line: string): void {
  ctx.io.stderr.write(`${line}\n`);
}

export async function runAuthStatus(ctx: CommandContext): Promise<void> {
  const target = await resolveTarget(ctx);
  const print = (label: string, text: string) => ctx.io.stdout.write(`${label.padEnd(10)}${text}\n`);
  const { settings } = target;
  print('profile', `${settings.profile} (${settings.configPath})`);
  const from = (key: 'api-key' | 'base-url', source: Source | undefined) =>
    ` (${sourceText(key, source, settings.profile)})`;
  print('base URL', target.baseUrl ? target.baseUrl + from('base-url', target.baseUrlSource) : 'not set');
  print(
    'API key',
    target.apiKey ? maskApiKey(target.apiKey) + from('api-key', target.apiKeySource) : 'not set',
  );

  const session = await connectOrClose(target);
  const request = `GET ${session.client.apiRoot}leads?limit=1`;
  try {
    await session.client.listLeads({ limit: 1 }, { signal: ctx.signal });
    print('server', `accepted the key (this check spent 1 request: ${request})`);
  } catch (error) {
    print('server', `${outcome(error)} (${request})`);
    throw error;
  } finally {
    await session.close();
  }
}

function outcome(error: unknown): string {
  if (error instanceof AuthError) return `rejected the key (${error.status})`;
  if (error instanceof ForbiddenError)
    return `refused: account deactivated or without API access (${error.status})`;
  if (error instanceof NetworkError) return 'not reached';
  if (error instanceof ServerError) return `failed (${error.status})`;
  if (error instanceof LeadError && 'status' in error) return `answered ${String(error.status)}`;
  return 'no usable answer';
}
