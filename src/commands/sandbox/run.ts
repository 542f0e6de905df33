// `leadctl sandbox`: start the local API server, print how to reach it (stdout: sourceable
// KEY=value lines; stderr: the keys table for people), and serve until the run's signal.

import { once } from 'node:events';
import { abortErrorFor, UsageError } from '../../api/errors.js';
import { errorCode } from '../../config/store.js';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import { allowanceFor } from '../../sandbox/keys.js';
import type { SandboxKeys, SandboxPlan, SandboxVariant } from '../../sandbox/types.js';
import type { CommandContext } from '../../session.js';
import { formatCount } from '../../ui/ui.js';

type SandboxIo = Pick<CommandContext['io'], 'stdout' | 'stderr'> & { signal: AbortSignal };

function describeAccess(variant: SandboxVariant, plan: SandboxPlan, options: SandboxOptions): string {
  const allowance = allowanceFor(variant, plan, options);
  if (!allowance.apiAccess) return 'no API access (403)';
  return `${formatCount(allowance.dailyRequests)} requests/day, ${formatCount(allowance.monthlyLiveSearches)} live searches/month`;
}

function keysTable(options: SandboxOptions, keys: SandboxKeys) {
  const variant = options.variant ?? 'b';
  const chosen = options.plan ?? 'agency';
  const rows: [string, string, string][] = [
    ['plan', `access (variant ${variant.toUpperCase()})`, 'key'],
    ...(['free', 'pro', 'agency'] as const).map((plan): [string, string, string] => [
      plan === chosen ? `${plan} *` : plan,
      describeAccess(variant, plan, options),
      keys[plan],
    ]),
    ['deactivated', 'account deactivated (403)', keys.deactivated],
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`)
    .join('\n');
}

export async function runSandbox(options: SandboxOptions, io: SandboxIo): Promise<void> {
  // Nobody reads the request log of a server that runs for days: do not let it grow.
  const sandbox = await listening(options);
  io.stdout.write(`LEADCTL_BASE_URL=${sandbox.url}\nLEADCTL_API_KEY=${sandbox.apiKey}\n`);
  io.stderr.write(
    `Lead Data API v1 sandbox on ${sandbox.url} (seed ${options.seed ?? 1})\n\n` +
      `${keysTable(options, sandbox.keys)}\n\n* LEADCTL_API_KEY\n\nServing until Ctrl-C\n`,
  );

  // Until Ctrl-C, SIGTERM or SIGHUP (cli.ts), which end it as any stopped run: exit 130, 143 or 129.
  const { signal } = io;
  if (!signal.aborted) await once(signal, 'abort');
  await sandbox.close();
  throw abortErrorFor(signal.reason);
}

/** A port someone else holds, or one below 1024, is the user's choice to change: exit 2, not a crash. */
async function listening(options: SandboxOptions): Promise<SandboxHandle> {
  try {
    return await startSandbox({ recordRequests: false, ...options });
  } catch (error) {
    const where = `${options.host ?? '127.0.0.1'}:${options.port ?? 0}`;
    const code = errorCode(error);
    if (code === 'EADDRINUSE') {
      throw new UsageError(`port ${where} is already in use`, 'choose another --port (0 = any)');
    }
    if (code === 'EACCES') {
      throw new UsageError(`not allowed to listen on ${where}`, 'choose another --port (0 = any)');
    }
    if (code === 'EADDRNOTAVAIL') {
      throw new UsageError(
        `cannot listen on ${where}: no such address on this machine`,
        'choose another --host',
      );
    }
    throw error;
  }
}
