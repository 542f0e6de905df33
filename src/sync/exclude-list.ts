// `--exclude FILE`: the businesses the user already has, from a CSV or a leadctl database; the matching is
// text/business-match.ts.
import { UsageError } from '../api/errors.js';
import { isBlankRecord } from '../batch/csv-records.js';
import { DEFAULT_MAX_INPUT_BYTES, excludeFileRecords } from '../batch/load-input.js';
import { databaseTarget, isPostgresUrl } from '../store/paths.js';
import { openStore } from '../store/store.js';
import { SuppressionIndex } from '../text/business-match.js';

/** The columns a suppression list is read from; any other column is ignored. */
export const EXCLUDE_COLUMNS = ['place_id', 'id', 'phone', 'website', 'domain', 'name', 'address'] as const;
/** The names HubSpot's companies export gives these columns. */
const COLUMN_ALIASES: Record<string, string> = {
  'company domain name': 'domain',
  'phone number': 'phone',
  'website url': 'website',
};

const SQLITE_MAGIC = 'SQLite format 3\0';
const isSqlite = (head: Buffer) => head.toString('latin1', 0, SQLITE_MAGIC.length) === SQLITE_MAGIC;

/** `env` and `account` say how a database is read (one account's rows, or all); `maxBytes`, a CSV's ceiling. */
export async function loadExcludeList(
  file: string,
  read: { env: NodeJS.ProcessEnv; account: string | undefined; maxBytes?: number; signal: AbortSignal },
): Promise<SuppressionIndex> {
  if (isPostgresUrl(file)) return fromDatabase(file, read);
  const index = await SuppressionIndex.create();
  const maxBytes = read.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  let keysOf: ReturnType<typeof columnsToMatch> | undefined;
  for await (const records of excludeFileRecords(file, maxBytes, read.signal, isSqlite)) {
    if (records === 'database') return fromDatabase(file, read);
    for (const record of records) {
      if (record.problem !== undefined) {
        throw new UsageError(`--exclude ${file}, line ${record.line}: ${record.problem}`);
      }
      if (isBlankRecord(record)) continue;
      if (keysOf === undefined) keysOf = columnsToMatch(record.fields, file);
      else index.add(keysOf(record.fields));
    }
  }
  if (keysOf === undefined) columnsToMatch([], file);
  return index;
}

/** What a row holds of the columns to match on, found in the header row; refused when it has none. */
function columnsToMatch(header: string[], file: string) {
  // Header names as a person or another tool wrote them: "Phone", " Website ".
  const names = header.map((field) => {
    const name = field.trim().toLowerCase();
    return COLUMN_ALIASES[name] ?? name;
  });
  const positions = EXCLUDE_COLUMNS.map((column) => [column, names.indexOf(column)] as const).filter(
    ([, at]) => at >= 0,
  );
  const usable =
    positions.some(([column]) => column !== 'name' && column !== 'address') ||
    (names.includes('name') && names.includes('address'));
  if (!usable) {
    throw new UsageError(
      `--exclude ${file} has none of the columns to match on`,
      'give it a header row with place_id, id, phone, website, domain, or name and address (a CSV leadctl wrote has them)',
    );
  }
  return (fields: string[]) =>
    Object.fromEntries(positions.map(([column, at]) => [column, unguarded(fields[at])]));
}

/** leadctl's csv puts `'` before a cell a spreadsheet would run as a formula: the value is behind it. */
function unguarded(cell: string | undefined): string | undefined {
  return cell !== undefined && /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

async function fromDatabase(
  file: string,
  { env, account }: { env: NodeJS.ProcessEnv; account: string | undefined },
): Promise<SuppressionIndex> {
  const store = await openStore(databaseTarget(file, undefined, env), env, {
    feature: '--exclude with a database',
    account: account ?? 'default',
  });
  try {
    const index = await SuppressionIndex.create();
    for (const row of await store.businesses(account)) index.add(row);
    return index;
  } finally {
    await store.close();
  }
}
