// One search: validate everything before the request, then write the results like any list.
import { AbortedError, UsageError } from '../../api/errors.js';
import { withItemSink, writesToStdout } from '../../output/item-sink.js';
import { filteredOutSentence } from '../../output/where.js';
import { RESOURCES } from '../../resources.js';
import { type CommandContext, itemOutput, openSession, type Session } from '../../session.js';
import { sanitizeForTerminal } from '../../text/terminal-text.js';
import { formatCount } from '../../ui/ui.js';
import type { SearchFlags } from './command.js';

const USAGE_HINT =
  'usage: leadctl search <query...> --location <place> [--radius <miles>], or --input <file>';

export async function runSearch(words: string[], flags: SearchFlags, ctx: CommandContext): Promise<void> {
  const query = words.join(' ').trim();
  if (flags.append && writesToStdout(flags)) {
    throw new UsageError('--append needs -o <file>: the file to add rows to');
  }
  if (flags.input !== undefined) {
    if (query) throw new UsageError('give either a query or --input, not both', USAGE_HINT);
    if (flags.append)
      throw new UsageError('--append adds one search to a file; a stopped batch goes on with --resume');
    const { runBatch } = await import('./batch.js');
    await runBatch(flags.input, flags, ctx);
    return;
  }
  const batchOnly = (
    [
      'columns',
      'ignoreExtra',
      'unique',
      'maxRequests',
      'resume',
      'resendUnknown',
      'dryRun',
      'concurrency',
    ] as const
  ).filter((k) => flags[k] !== undefined);
  if (batchOnly.length > 0) {
    const names = batchOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    throw new UsageError(`${names.join(', ')} only applies to a batch (--input)`, USAGE_HINT);
  }
  if (!query) throw new UsageError('missing the search query', USAGE_HINT);
  if (flags.location === undefined) throw new UsageError('missing --location: where to search', USAGE_HINT);

  const remembering = remembersSearches(flags) ? await import('../../sync/search-memory.js') : undefined;
  const memory = await remembering?.openSearchMemory(flags, ctx);
  const ask = { query, location: flags.location, radius: flags.radius };
  let sent: SearchAnswer | undefined;
  const session = await openSession(ctx).catch(async (error: unknown) => {
    await memory?.close();
    throw error;
  });
  const { client, ui } = session;
  try {
    const footer = await withItemSink(itemOutput(session, ctx, flags, RESOURCES.results), async (sink) => {
      const hit = await memory?.cached(ask);
      if (remembering && memory && hit) {
        const selection = await memory.select(hit.results);
        await sink.writeAll(selection.kept);
        const n = hit.results.length;
        const note = remembering.selectionNote(selection, n);
        return `${formatCount(n)} ${n === 1 ? 'result' : 'results'} from ${memory.file}, searched ${hit.searchedAt}; no request sent${note}.${filteredOutSentence(sink.filteredOut)}`;
      }
      ui.progress(`Searching for ${query} near ${flags.location}…`);
      const answer = await client.search(ask, { signal: ctx.signal });
      ui.stopProgress();
      sent = answer;
      const selection = await memory?.select(answer.results);
      await sink.writeAll(selection?.kept ?? answer.results);
      const n = answer.results.length;
      // The echoes come from the server: never let them reach a terminal raw.
      const echo = `"${sanitizeForTerminal(answer.query)}" near ${sanitizeForTerminal(answer.location)}`;
      const note = selection ? (remembering?.selectionNote(selection, n) ?? '') : '';
      return `${formatCount(n)} ${n === 1 ? 'result' : 'results'} for ${echo}${note}.${filteredOutSentence(sink.filteredOut)}`;
    });
    // Stored once the output is committed: --new-only never counts as seen what was not written.
    if (sent) await memory?.record(ask, sent.results, sent);
    ui.notice(footer);
  } catch (error) {
    // The usage recorder counts a search that reached the server and was not refused: it may have run.
    if (error instanceof AbortedError && [...session.usage.run.values()].some((day) => day.searches > 0)) {
      ui.warn('the search was sent: it may have spent a live search');
    }
    throw error;
  } finally {
    ui.stopProgress();
    await memory?.close();
    await session.close();
  }
}

type SearchAnswer = Awaited<ReturnType<Session['client']['search']>>;

/** --db, --new-only, --cache or --exclude: the run loads src/sync/search-memory.ts (and maybe node:sqlite). */
export function remembersSearches(flags: SearchFlags): boolean {
  return (
    flags.db !== undefined ||
    Boolean(flags.newOnly) ||
    flags.cache !== undefined ||
    flags.exclude !== undefined
  );
}
