// `leadctl sync`: leads and history into a SQLite or PostgreSQL database, a transaction per page, one sync
// per account at a time (docs/sync.md).
import { fetchListPage, type ListResource } from '../../api/paging/index.js';
import { RESOURCES } from '../../resources.js';
import { type CommandContext, openSession } from '../../session.js';
import { databaseTarget } from '../../store/paths.js';
import { openStore, type RunRecord } from '../../store/store.js';
import { syncList } from '../../sync/list-sync.js';
import { formatCount } from '../../ui/ui.js';
import { VERSION } from '../../version.js';
import { progressLine } from '../list/run.js';
import type { SyncFlags } from './command.js';

const LISTS: ListResource[] = ['leads', 'history'];

export async function runSync(flags: SyncFlags, ctx: CommandContext): Promise<void> {
  let requests = 0;
  const session = await openSession(ctx, {
    onAttempt: () => {
      requests += 1;
    },
  });
  const { client, ui, settings } = session;
  const account = flags.account ?? settings.profile;
  try {
    // Before any request: no SQLite, a damaged or newer database, a second run for the account are exit 2.
    const store = await openStore(databaseTarget(flags.db, settings.dbUrl, ctx.io.env), ctx.io.env, {
      feature: 'sync',
      account,
      check: true,
    });
    let release: (() => Promise<void>) | undefined;
    const counts = {
      leads: { added: 0, changed: 0, revived: 0, deleted: 0, total: undefined },
      history: { added: 0, changed: 0, revived: 0, deleted: 0, total: undefined },
    } as RunRecord['counts'];
    const startedAt = new Date().toISOString();
    let outcome = 'failed';
    try {
      release = await store.lockAccount(account, 'leadctl sync');
      ui.notice(`Database: ${store.label} (account ${account})`);
      for (const resource of LISTS) {
        const noun = RESOURCES[resource].noun;
        await syncList({
          store,
          account,
          resource,
          fetchPage: (page, size, signal) => fetchListPage(client, resource, page, size, signal),
          signal: ctx.signal,
          full: Boolean(flags.full),
          seenAt: startedAt,
          noun,
          counts: counts[resource],
          onProgress: (p) => ui.progress(progressLine(noun, p)),
          onPage: (page, fetched) =>
            ui.progress(`Fetching new ${noun}… page ${formatCount(page)} (${formatCount(fetched)} new)`),
          onNotice: (message) => ui.notice(message),
        });
        ui.stopProgress();
      }
      outcome = 'complete';
      ui.notice(
        `Synced: leads ${describe(counts.leads)}; history ${describe(counts.history)} (${formatCount(requests)} ${requests === 1 ? 'request' : 'requests'}).`,
      );
    } catch (error) {
      ui.stopProgress();
      if (ctx.signal.aborted) outcome = 'stopped';
      const kept = (c: RunRecord['counts'][ListResource]) => c.added + c.changed + c.revived;
      if (kept(counts.leads) + kept(counts.history) > 0) {
        ui.notice(
          `Kept what was committed: leads ${describe(counts.leads)}; history ${describe(counts.history)}. The next sync goes on from there.`,
        );
      }
      throw error;
    } finally {
      if (release) {
        const run = { startedAt, outcome, requests, counts, version: VERSION };
        await store.recordRun(account, run).catch(() => {});
        await release().catch(() => {});
      }
      await store.close();
    }
  } finally {
    ui.stopProgress();
    await session.close();
  }
}

function describe({ added, changed, revived, deleted }: RunRecord['counts'][ListResource]): string {
  const more = `${deleted > 0 ? `, ${formatCount(deleted)} deleted` : ''}${revived > 0 ? `, ${formatCount(revived)} back` : ''}`;
  return `${formatCount(added)} new, ${formatCount(changed)} changed${more}`;
}
