// `--exclude FILE`: the businesses the user already has, from a CSV or a leadctl database; the matching is
// text/business-match.ts.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { isBlankRecord, parseCsvRecords } from '../batch/csv-records.js';
import { decodeUtf8 } from '../batch/load-input.js';
import { errorCode, reasonOf } from '../output/destination.js';
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

/** `database`: how a leadctl database is read (the run's environment; one account's rows, or all). */
export async function loadExcludeList(
  file: string,
  database: { env: NodeJS.ProcessEnv; account: string | undefined },
): Promise<SuppressionIndex> {
  if (isPostgresUrl(file)) return fromDatabase(file, database);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read --exclude ${file}: ${readReason(error)}`);
  }
  if (bytes.subarray(0, SQLITE_MAGIC.length).toString('latin1') === SQLITE_MAGIC) {
    return fromDatabase(file, database);
  }
  return fromCsv(decodeUtf8(bytes, file), file);
}

async function fromCsv(text: string, file: string): Promise<SuppressionIndex> {
  const parsed = parseCsvRecords(text);
  if (parsed.unterminatedQuoteLine !== undefined) {
    throw new UsageError(
      `--exclude ${file}: a quote opened on line ${parsed.unterminatedQuoteLine} never closes`,
    );
  }
  const [header, ...rows] = parsed.records.filter((record) => !isBlankRecord(record));
  // Header names as a person or another tool wrote them: "Phone", " Website ".
  const names = (header?.fields ?? []).map((field) => {
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
  const index = await SuppressionIndex.create();
  for (const row of rows) {
    index.add(Object.fromEntries(positions.map(([column, at]) => [column, unguarded(row.fields[at])])));
  }
  return index;
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

/** Reading, a missing path is a missing file (output/destination.ts words it for writing: "no such directory"). */
function readReason(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder';
  return reasonOf(error);
}
