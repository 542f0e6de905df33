// leads and history: one page with a footer, or many pages (--all, --max-items, --since) streamed in
// order through the paginator.
import type { LeadClient } from '../api/client.js';
import { parseSince } from '../api/since.js';
import { withItemSink } from '../output/item-sink.js';
import { RESOURCES } from '../resources.js';
import { formatCount } from '../ui/count.js';
import type { CommandContext } from './context.js';
import { pageFooter, progressLine } from './footer.js';
import { collectGarbage, ROWS_BETWEEN_COLLECTIONS } from './heap.js';
import type { ListFlags } from './list-command.js';
import { openSession } from './session.js';

type Item = Record<string, unknown>;

async function fetchOnePage(
  client: LeadClient,
  resource: 'leads' | 'history',
  page: number,
  limit: number,
  signal: AbortSignal,
) {
  if (resource === 'leads') {
    const { leads, meta } = await client.listLeads({ page, limit }, { signal });
    return { items: leads as Item[], meta };
  }
  const { history, meta } = await client.listHistory({ page, limit }, { signal });
  return { items: history as Item[], meta };
}

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
          const { items, meta } = await fetchOnePage(
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
        const pages = client.paginatePages(resource, {
          limit,
          startPage: flags.page ?? 1,
          concurrency: flags.concurrency ?? 4,
          ...(flags.maxItems === undefined ? {} : { maxItems: flags.maxItems }),
          ...(since === undefined ? {} : { since }),
          signal: ctx.signal,
          onProgress: (p) => ui.progress(progressLine(info.noun, p)),
        });
        let written = 0;
        // A collection falls due every ROWS_BETWEEN_COLLECTIONS rows and runs when the next page
        // arrives: an export that ends right on the mark (20,000 rows) exits without one (~10 ms).
        let collectionDue = false;
        for await (const items of pages) {
          if (collectionDue) collectGarbage();
          await sink.writeAll(items);
          const before = written;
          written += items.length;
          collectionDue =
            Math.floor(written / ROWS_BETWEEN_COLLECTIONS) > Math.floor(before / ROWS_BETWEEN_COLLECTIONS);
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
