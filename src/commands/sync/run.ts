// `leadctl sync`: leads and history into a SQLite database, in one transaction, so that a failure or
// Ctrl-C leaves the last committed state. The first run fetches everything; later runs only what is
// new (one request per list when nothing is). docs/sync.md has the tables and the rules.
import type { ListResource } from '../../api/paging/index.js';
import { RESOURCES } from '../../resources.js';
import type { CommandContext } from '../../session.js';
import { connect, resolveTarget, type Session } from '../../session.js';
import { type OpenDatabase, openDatabase } from '../../sync/database.js';
import { loadSqlite } from '../../sync/engine.js';
import { walkList } from '../../sync/list-walk.js';
import { defaultDatabase } from '../../sync/paths.js';
import { readListState, writeListState } from '../../sync/sync-state.js';
import { rowUpserter, type UpsertCounts } from '../../sync/upsert.js';
import { formatCount } from '../../ui/ui.js';
import { VERSION } from '../../version.js';
import { progressLine } from '../list/run.js';
import type { SyncFlags } from './command.js';

const LISTS: ListResource[] = ['leads', 'history'];

export async function runSync(flags: SyncFlags, ctx: CommandContext): Promise<void> {
  const file = flags.db ?? defaultDatabase(ctx.io.env);
  // First of all: on a Node without SQLite nothing else is worth doing (exit 2, one line and a hint).
  await loadSqlite('sync');
  let requests = 0;
  const target = await resolveTarget(ctx);
  let session: Session;
  try {
    session = connect(target, {
      onAttempt: () => {
        requests += 1;
      },
    });
  } catch (error) {
    await target.close();
    throw error;
  }
  const { client, ui } = session;
  // One database, one account: the in-process sandbox's port changes every run, its data does not.
  const account = `${target.baseUrlSource === 'sandbox' ? 'sandbox' : client.apiRoot} (profile ${session.settings.profile})`;
  try {
    // The engine, the lock and the tables come before any request: a second writer or a Node
    // without SQLite is exit 2 with nothing sent.
    const database = await openDatabase({
      file,
      isDefault: flags.db === undefined,
      command: 'leadctl sync',
      feature: 'sync',
    });
    try {
      ui.notice(`Database: ${file}`);
      const counts = await syncLists(database, {
        client,
        ui,
        account,
        signal: ctx.signal,
        requests: () => requests,
      });
      ui.notice(
        `Synced: leads ${describe(counts.leads)}; history ${describe(counts.history)} (${formatCount(requests)} ${requests === 1 ? 'request' : 'requests'}).`,
      );
    } finally {
      database.close();
    }
  } finally {
    ui.stopProgress();
    await session.close();
  }
}

type ListCounts = UpsertCounts & { total: number };

/** Both lists and the sync_runs row, in one transaction. */
async function syncLists(
  database: OpenDatabase,
  run: {
    client: Session['client'];
    ui: Session['ui'];
    account: string;
    signal: AbortSignal;
    requests(): number;
  },
): Promise<Record<ListResource, ListCounts>> {
  const { client, ui, account } = run;
  const startedAt = new Date().toISOString();
  const counts: Record<ListResource, ListCounts> = {
    leads: { added: 0, changed: 0, total: 0 },
    history: { added: 0, changed: 0, total: 0 },
  };
  await database.transaction(async () => {
    for (const resource of LISTS) {
      const noun = RESOURCES[resource].noun;
      const previous = readListState(database.db, database.file, resource, account);
      const rows = rowUpserter(database.db, resource);
      const walk = walkList({
        client,
        resource,
        previous,
        signal: run.signal,
        noun,
        onProgress: (p) => ui.progress(progressLine(noun, p)),
        onPage: (page, fetched) =>
          ui.progress(`Fetching new ${noun}… page ${formatCount(page)} (${formatCount(fetched)} new)`),
        onNotice: (message) => ui.notice(message),
      });
      const seenAt = new Date().toISOString();
      for await (const items of walk.pages) {
        const page = rows.upsert(items, seenAt);
        counts[resource].added += page.added;
        counts[resource].changed += page.changed;
      }
      ui.stopProgress();
      const state = walk.result();
      counts[resource].total = state.total;
      writeListState(database.db, resource, account, state, new Date().toISOString());
    }
    database.db
      .prepare(
        `INSERT INTO sync_runs (started_at, finished_at, requests, leads_added, leads_changed,
           leads_total, history_added, history_changed, history_total, leadctl_version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        startedAt,
        new Date().toISOString(),
        BigInt(run.requests()),
        BigInt(counts.leads.added),
        BigInt(counts.leads.changed),
        BigInt(counts.leads.total),
        BigInt(counts.history.added),
        BigInt(counts.history.changed),
        BigInt(counts.history.total),
        VERSION,
      );
  });
  return counts;
}

function describe({ added, changed }: UpsertCounts): string {
  return `${formatCount(added)} new, ${formatCount(changed)} changed`;
}
