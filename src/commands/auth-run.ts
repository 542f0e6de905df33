// `leadctl auth status`: what a run would use (profile, base URL, key and where each came from, the
// key masked) on stdout, then one request (`leads --limit 1`) to learn whether the server accepts the
// key. The exit code is that request's: 0 accepted, 3 rejected, 4 deactivated, 6 unreachable.
import { AuthError, ForbiddenError, LeadError, NetworkError, ServerError } from '../api/errors.js';
import { maskApiKey } from '../text/secrets.js';
import type { CommandContext } from './context.js';
import { connect, resolveTarget, type Session, type Target } from './session.js';
import type { Source } from './setting-source.js';
import { sourceText } from './setting-source.js';

export async function runAuthStatus(ctx: CommandContext): Promise<void> {
  const target = await resolveTarget(ctx);
  const print = (label: string, text: string) => ctx.io.stdout.write(`${label.padEnd(10)}${text}\n`);
  const { settings } = target;
  print('profile', `${settings.profile} (${settings.configPath})`);
  print(
    'base URL',
    target.baseUrl ? `${target.baseUrl} (${from(target, target.baseUrlSource, 'base-url')})` : 'not set',
  );
  print(
    'API key',
    target.apiKey
      ? `${maskApiKey(target.apiKey)} (${from(target, target.apiKeySource, 'api-key')})`
      : 'not set',
  );

  let session: Session;
  try {
    session = connect(target);
  } catch (error) {
    await target.close();
    throw error;
  }
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

function from(target: Target, source: Source | undefined, key: 'api-key' | 'base-url'): string {
  return sourceText(key, source, target.settings.profile);
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
