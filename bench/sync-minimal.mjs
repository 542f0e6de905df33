// The floor `leadctl sync` is measured against (bench/sync.mjs): the same fetches, every page in turn,
// and the same rows, one transaction per page, into tables with leadctl's keys and indexes in SQLite
// (a file) or PostgreSQL (a URL); nothing else.
// argv: <base url> <api key> <file or postgres:// url>; PGPASSWORD gives the password.
import { getDomain } from 'tldts';

const [base, key, target] = process.argv.slice(2);
const pg = target.startsWith('postgres') ? new (await import('pg')).default.Client(target) : undefined;
const sqlite = pg ? undefined : new (await import('node:sqlite')).DatabaseSync(target);
const COLUMNS = {
  leads: [
    'id',
    'name',
    'address',
    'phone',
    'website',
    'rating',
    'review_count',
    'category',
    'saved_at',
    'domain',
  ],
  history: ['id', 'query', 'location', 'results_count', 'created_at'],
};
const all = (list) => ['account', ...COLUMNS[list], 'first_seen_at', 'last_seen_at', 'list_rank', 'json'];
await pg?.connect();
for (const list of ['leads', 'history']) {
  // leadctl's keys and indexes (src/store/schema.ts): with random ids, each page's commit rewrites
  // their pages, most of what a sync into SQLite costs. A table without them is not the same insert.
  const ddl = `CREATE TABLE ${list} (${all(list).join(' TEXT, ')} TEXT, PRIMARY KEY (account, id));
    CREATE INDEX ${list}_by_rank ON ${list} (account, list_rank);
    ${list === 'leads' ? 'CREATE INDEX leads_by_domain ON leads (domain)' : ''}`;
  if (pg) await pg.query(ddl);
  else sqlite.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; ${ddl}`);
}
const now = new Date().toISOString();
let rank = 0;
for (const list of ['leads', 'history']) {
  for (let page = 1; ; page++) {
    const answer = await fetch(`${base}/api/v1/${list}?page=${page}&limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = await answer.json();
    const rows = body[list].map((item) => [
      'default',
      ...COLUMNS[list].map((c) =>
        c === 'domain' ? (getDomain(item.website ?? '') ?? null) : (item[c] ?? null),
      ),
      now,
      now,
      rank--,
      JSON.stringify(item),
    ]);
    const marks = rows.map(
      (row, r) => `(${row.map((_, c) => (pg ? `$${r * row.length + c + 1}` : '?')).join(', ')})`,
    );
    const insert = `INSERT INTO ${list} VALUES ${marks.join(', ')}`;
    if (pg && rows.length) {
      await pg.query('BEGIN');
      await pg.query(insert, rows.flat());
      await pg.query('COMMIT');
    } else if (rows.length) {
      sqlite.exec('BEGIN');
      sqlite.prepare(insert).run(...rows.flat());
      sqlite.exec('COMMIT');
    }
    if (page >= body.meta.totalPages) break;
  }
}
await pg?.end();
