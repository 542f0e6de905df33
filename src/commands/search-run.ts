// One search: validate everything before the request, then write the results like any list.
import { UsageError } from '../api/errors.js';
import { withItemSink } from '../output/item-sink.js';
import { sanitizeForTerminal } from '../output/sanitize.js';
import { RESOURCES } from '../resources.js';
import { formatCount } from '../ui/count.js';
import type { CommandContext } from './context.js';
import type { SearchFlags } from './search-flags.js';
import { openSession } from './session.js';

const USAGE_HINT =
  'usage: leadctl search <query...> --location <place> [--radius <miles>], or --input <file>';

export async function runSearch(words: string[], flags: SearchFlags, ctx: CommandContext): Promise<void> {
  const query = words.join(' ').trim();
  if (flags.input !== undefined) {
    if (query) throw new UsageError('give either a query or --input, not both', USAGE_HINT);
    const { runBatch } = await import('./batch-run.js');
    await runBatch(flags.input, flags, ctx);
    return;
  }
  const batchOnly = (
    ['unique', 'maxRequests', 'resume', 'resendUnknown', 'dryRun', 'concurrency'] as const
  ).filter((k) => flags[k] !== undefined);
  if (batchOnly.length > 0) {
    const names = batchOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new UsageError(`${names.join(', ')} only applies to a batch (--input)`, USAGE_HINT);
  }
  if (!query) throw new UsageError('missing the search query', USAGE_HINT);
  if (flags.location === undefined) throw new UsageError('missing --location: where to search', USAGE_HINT);

  const session = await openSession(ctx);
  const { client, ui } = session;
  try {
    const footer = await withItemSink(
      { ctx, flags, resource: RESOURCES.results, storedFormat: session.settings.format },
      async (sink) => {
        ui.progress(`Searching for ${query} near ${flags.location}…`);
        const answer = await client.search(
          {
            query,
            location: flags.location as string,
            ...(flags.radius === undefined ? {} : { radius: flags.radius }),
          },
          { signal: ctx.signal },
        );
        ui.stopProgress();
        await sink.writeAll(answer.results);
        const n = answer.results.length;
        // The echoes come from the server: never let them reach a terminal raw.
        const echo = `"${sanitizeForTerminal(answer.query)}" near ${sanitizeForTerminal(answer.location)}`;
        return `${formatCount(n)} ${n === 1 ? 'result' : 'results'} for ${echo}.`;
      },
    );
    ui.notice(footer);
  } finally {
    ui.stopProgress();
    await session.close();
  }
}
