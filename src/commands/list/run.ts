// leads and history: one page with a footer, or many pages (--all, --max-items, --since, --checkpoint)
// streamed in order, ending with what was written and the requests it took.

import { RequestBudget } from '../../api/client-options.js';
import { LeadError, UsageError } from '../../api/errors.js';
import { fetchListPage, type PageProgress } from '../../api/paging/index.js';
import type { Meta } from '../../api/schemas.js';
import { parseSince } from '../../api/timestamp.js';
import type { CheckpointRun } from '../../checkpoint/checkpoint-run.js';
import { appendUndoPoint } from '../../output/destination.js';
import { withItemSink, writesToStdout } from '../../output/item-sink.js';
import { filteredOutNote, filteredOutSentence } from '../../output/where.js';
import { RESOURCES } from '../../resources.js';
import { type CommandContext, itemOutput, openSession } from '../../session.js';
import { formatCount, pagePosition, shellWord } from '../../ui/ui.js';
import { quotaCheckForPages } from '../../usage/recorder.js';
import type { ListFlags } from './command.js';

export async function runList(
  resource: 'leads' | 'history',
  flags: ListFlags,
  ctx: CommandContext,
): Promise<void> {
  const info = RESOURCES[resource];
  // Every check that can fail does so before the first request.
  const since = flags.since === undefined ? undefined : parseSince(flags.since, Date.now());
  checkExportFlags(flags);
  const manyPages =
    Boolean(flags.all) ||
    flags.maxItems !== undefined ||
    since !== undefined ||
    flags.checkpoint !== undefined;
  let requests = 0;
  const budget =
    flags.maxRequests === undefined
      ? undefined
      : new RequestBudget(flags.maxRequests, (max) => capError(max, flags));
  const session = await openSession(ctx, {
    onAttempt: () => {
      requests += 1;
    },
    ...(budget ? { beforeAttempt: budget.beforeAttempt } : {}),
  });
  const { client, ui } = session;
  const spent = () => `${formatCount(requests)} ${requests === 1 ? 'request' : 'requests'}`;
  // With --where, --max-items counts written items: the paginator has no cap and pages on until enough pass.
  const filtering = (flags.where?.length ?? 0) > 0;
  const maxFetched = filtering ? undefined : flags.maxItems;
  // Many pages: the biggest page spends the fewest requests, unless fewer items are wanted.
  const limit = flags.limit ?? Math.min(100, maxFetched ?? 100);
  const checkQuota = quotaCheckForPages(session, {
    startPage: flags.page ?? 1,
    limit,
    maxItems: maxFetched,
    since,
  });
  const onProgress = (p: PageProgress) => {
    ui.progress(progressLine(info.noun, p));
    checkQuota(p);
  };
  let checkpoint: CheckpointRun | undefined;
  try {
    checkpoint =
      flags.checkpoint === undefined
        ? undefined
        : // Loaded only here: it brings node:crypto and zod, which a one-page run never needs.
          await (await import('../../checkpoint/checkpoint-run.js')).startCheckpointRun({
            file: flags.checkpoint,
            client,
            resource,
            profile: session.settings.profile,
            limit,
            concurrency: flags.concurrency ?? 4,
            signal: ctx.signal,
            noun: info.noun,
            onProgress,
            onPage: (page, written) =>
              ui.progress(
                `Fetching new ${info.noun}… page ${formatCount(page)} (${formatCount(written)} new)`,
              ),
            onNotice: (message) => ui.notice(message),
          });
    // --append with a checkpoint: where the file is cut back to should the checkpoint's last rename fail.
    const undoAppend = checkpoint && flags.append ? await appendUndoPoint(flags.output as string) : undefined;
    const footer = await withItemSink(itemOutput(session, ctx, flags, info), async (sink) => {
      if (!manyPages) {
        const { items, meta } = await fetchListPage(
          client,
          resource,
          flags.page ?? 1,
          flags.limit ?? 25,
          ctx.signal,
        );
        await sink.writeAll(items);
        return pageFooter(meta, items.length, info.noun, flags) + filteredOutSentence(sink.filteredOut);
      }
      const pages =
        checkpoint?.pages ??
        client.paginatePages(resource, {
          limit,
          startPage: flags.page ?? 1,
          concurrency: flags.concurrency ?? 4,
          ...(maxFetched === undefined ? {} : { maxItems: maxFetched }),
          ...(since === undefined ? {} : { since }),
          signal: ctx.signal,
          onProgress,
          onNotice: (message) => ui.notice(message),
        });
      let written = 0;
      for await (const items of pages) {
        written += await sink.writeAll(items, (flags.maxItems ?? Number.POSITIVE_INFINITY) - written);
        if (flags.maxItems !== undefined && written >= flags.maxItems) break;
      }
      ui.stopProgress();
      // Before the output is committed: all that can fail in moving the checkpoint (its new file,
      // written and synced) fails now, while the output can still be taken back.
      await checkpoint?.prepare();
      const noun = checkpoint && !checkpoint.first ? `new ${info.noun}` : info.noun;
      const filtered = sink.filteredOut;
      const counts = [filteredOutNote(filtered), spent()].filter(Boolean).join('; ');
      if (written === 0) return `No ${noun}${filtered > 0 ? ' passed --where' : ''} (${counts}).`;
      const where = writesToStdout(flags) ? '' : ` to ${flags.output}`;
      return `Wrote ${formatCount(written)} ${noun}${where} (${counts}).`;
    });
    // The output is committed; the checkpoint follows with one rename. Should that fail, appended rows are
    // taken back, so the next run (which fetches them again) does not write them twice.
    if (checkpoint) await commitCheckpoint(checkpoint, undoAppend, flags);
    if (footer) ui.notice(footer);
  } finally {
    ui.stopProgress();
    await checkpoint?.release();
    await session.close();
  }
}

async function commitCheckpoint(
  checkpoint: CheckpointRun,
  undoAppend: (() => Promise<void>) | undefined,
  flags: ListFlags,
): Promise<void> {
  try {
    await checkpoint.commit();
  } catch (error) {
    if (!undoAppend || !(error instanceof LeadError)) throw error;
    await undoAppend();
    throw new LeadError(
      `${error.message}; the rows this run appended to ${flags.output} were removed again`,
      {
        exitCode: error.exitCode,
        hint: 'the file and the checkpoint are as they were before this run: run it again',
        cause: error,
      },
    );
  }
}

/** The combinations that cannot work, refused before anything is sent. */
function checkExportFlags(flags: ListFlags): void {
  if (flags.append && writesToStdout(flags)) {
    throw new UsageError('--append needs -o <file>: the file to add rows to');
  }
  if (flags.checkpoint !== undefined) {
    const clash = (
      [
        ['page', '--page'],
        ['maxItems', '--max-items'],
        ['since', '--since'],
      ] as const
    ).find(([key]) => flags[key] !== undefined);
    if (clash) {
      throw new UsageError(
        `--checkpoint cannot be combined with ${clash[1]}: it reads from the newest end up to where the last run stood`,
      );
    }
  }
}

/** --max-requests reached: the next attempt is refused unsent and the run stops like a rate limit. */
function capError(max: number, flags: ListFlags): LeadError {
  const hint =
    flags.checkpoint === undefined
      ? 'run again with a higher --max-requests to export everything'
      : `the checkpoint ${flags.checkpoint} is unchanged: run the same command again (with a higher --max-requests to finish in one run)`;
  return new LeadError(`stopped at --max-requests ${formatCount(max)}: the export is not complete`, {
    code: 'max_requests',
    hint,
  });
}

/** The options that shaped the page, which the next page's command must repeat to continue it. */
type PageShape = Pick<ListFlags, 'limit' | 'fields' | 'where'>;

/** After a single page: where the user is and how to get the rest. */
function pageFooter(meta: Meta, shown: number, noun: string, shape: PageShape = {}): string {
  const where = pagePosition(meta, shown, noun);
  if (shown === 0 || meta.page >= meta.totalPages) return where;
  return `${where} Next: --page ${meta.page + 1}${shapeOptions(shape)}, or --all.`;
}

/** " --limit 10 --fields name,phone", quoted for a shell where a name needs it. */
function shapeOptions(shape: PageShape): string {
  let text = shape.limit === undefined ? '' : ` --limit ${shape.limit}`;
  if (shape.fields && shape.fields.length > 0) text += ` --fields ${shellWord(shape.fields.join(','))}`;
  for (const condition of shape.where ?? []) text += ` --where ${shellWord(condition.text)}`;
  return text;
}

/** The progress line of a walk over many pages (sync's too). */
export function progressLine(
  noun: string,
  p: { pagesFetched: number; totalPages: number; itemsYielded: number; total: number },
) {
  return `Fetching ${noun}… page ${formatCount(p.pagesFetched)} of ${formatCount(p.totalPages)} (${formatCount(p.itemsYielded)} of ${formatCount(p.total)})`;
}
