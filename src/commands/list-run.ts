// leads and history: one page with a footer, or many pages (--all, --max-items, --since) streamed in
// order through the paginator.
import { fetchListPage } from '../api/paging/index.js';
import { parseSince } from '../api/since.js';
import { withItemSink } from '../output/item-sink.js';
import { RESOURCES } from '../resources.js';
import { formatCount } from '../ui/count.js';
import { quotaCheckForPages } from '../usage/spend-warning.js';
import type { CommandContext } from './context.js';
import { pageFooter, progressLine } from './footer.js';
import type { ListFlags } from './list-command.js';
import { openSession } from './session.js';

export async function runList(
  resource: 'leads' | 'history',
  flags: ListFlags,
  ctx: CommandContext,
): Promise<void> {
  const info = RESOURCES[resource];
  // Every check that can fail does so before the first request.
  const since = flags.since === undefined ? undefined : parseSince(flags.since, Date.now());
  const manyPages = Boolean(flags.all) || flags.maxItems !== undefined || since !== undefined;
  const session = await openSession(ctx);
  const { client, ui } = session;
  try {
    const footer = await withItemSink(
      { ctx, flags, resource: info, storedFormat: session.settings.format },
      async (sink) => {
        if (!manyPages) {
          const { items, meta } = await fetchListPage(
            client,
            resource,
            flags.page ?? 1,
            flags.limit ?? 25,
            ctx.signal,
          );
          await sink.writeAll(items);
          return pageFooter(meta, items.length, info.noun, flags);
        }
        // Many pages: the biggest page spends the fewest requests, unless fewer items are wanted.
        const limit = flags.limit ?? Math.min(100, flags.maxItems ?? 100);
        const paging = { startPage: flags.page ?? 1, limit, maxItems: flags.maxItems, since };
        const checkQuota = quotaCheckForPages(session, paging);
        const pages = client.paginatePages(resource, {
          limit,
          startPage: flags.page ?? 1,
          concurrency: flags.concurrency ?? 4,
          ...(flags.maxItems === undefined ? {} : { maxItems: flags.maxItems }),
          ...(since === undefined ? {} : { since }),
          signal: ctx.signal,
          onProgress: (p) => {
            ui.progress(progressLine(info.noun, p));
            checkQuota(p);
          },
          onNotice: (message) => ui.notice(message),
        });
        let written = 0;
        for await (const items of pages) {
          await sink.writeAll(items);
          written += items.length;
        }
        ui.stopProgress();
        if (written === 0) return `No ${info.noun}.`;
        return flags.output ? `Wrote ${formatCount(written)} ${info.noun} to ${flags.output}.` : undefined;
      },
    );
    if (footer) ui.notice(footer);
  } finally {
    ui.stopProgress();
    await session.close();
  }
}
