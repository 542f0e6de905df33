// The PostgreSQL engine: `pg`, loaded only for a postgres:// database (why pg: docs/sync.md). One connection
// per run, so the account's advisory lock ends with the run, even on SIGKILL. Connects by libpq's rules.
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientConfig } from 'pg';
import { LeadError, UsageError } from '../api/errors.js';
import { reasonOf } from '../output/destination.js';
import { rememberSecret } from '../text/secrets.js';
import type { SqlEngine, SqlRow, SqlValue } from './schema.js';

export interface PgTarget {
  config: ClientConfig & { host: string; port: number; user: string; database: string };
  /** The URL without its password, for messages. */
  label: string;
  sslmode: string;
  password: string | undefined;
  /** Where a missing password was looked for, for the message that asks for one. */
  passwordPlaces: string;
}

const SSLMODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

/** libpq's reading of a connection URL and the PG* variables (pure: the unit tests call it). */
export function pgTarget(url: string, env: NodeJS.ProcessEnv): PgTarget {
  // libpq's URL: every part optional (postgres:// alone means "all from the environment"), which
  // WHATWG URL parsing refuses for an empty host.
  const parts =
    /^postgres(?:ql)?:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\[[^\]]*\]|[^/?:]*)(?::(\d*))?(?:\/([^?]*))?(?:\?(.*))?$/i.exec(
      url,
    );
  if (!parts) throw new UsageError('invalid database URL: expected postgres://user@host:port/database');
  const [, userPart, passwordPart, hostPart, portPart, databasePart, query] = parts;
  const params = new URLSearchParams(query ?? '');
  const param = (name: string) => params.get(name) || undefined;
  const decoded = (text: string | undefined) => (text ? decodeURIComponent(text) : undefined);
  const host = decoded(hostPart?.replace(/^\[(.*)\]$/, '$1')) ?? param('host') ?? env.PGHOST ?? 'localhost';
  const port = Number(portPart || param('port') || env.PGPORT || 5432);
  const user = decoded(userPart) ?? param('user') ?? env.PGUSER ?? os.userInfo().username;
  const database = decoded(databasePart) ?? param('dbname') ?? env.PGDATABASE ?? user;
  const sslmode = param('sslmode') ?? env.PGSSLMODE ?? 'prefer';
  if (!SSLMODES.includes(sslmode)) {
    throw new UsageError(`invalid sslmode "${sslmode}": expected one of ${SSLMODES.join(', ')}`);
  }
  const passFile = env.PGPASSFILE || path.join(env.HOME || os.homedir(), '.pgpass');
  const password =
    decoded(passwordPart) ??
    (env.PGPASSWORD || undefined) ??
    pgpassLookup(passFile, host, port, database, user);
  const shownHost = host.includes(':') ? `[${host}]` : host.startsWith('/') ? '' : host;
  const socket = host.startsWith('/') ? `?host=${encodeURIComponent(host)}` : '';
  const timeout = Number(env.PGCONNECT_TIMEOUT) || 10;
  return {
    config: {
      host,
      port,
      user,
      database,
      connectionTimeoutMillis: timeout * 1000,
      // Who holds an account's lock, for the run that finds it held (the server cuts it at 63 bytes).
      application_name: `leadctl ${process.pid} ${os.hostname()}`,
      ...sslFor(sslmode, host, env),
    },
    label: `postgres://${encodeURIComponent(user)}@${shownHost}:${port}/${encodeURIComponent(database)}${socket}`,
    sslmode,
    password,
    passwordPlaces: `PGPASSWORD, ${passFile}, or a URL stored with: leadctl config set db-url`,
  };
}

/** sslmode as libpq means it: require encrypts without checking the certificate, verify-* check it. */
function sslFor(sslmode: string, host: string, env: NodeJS.ProcessEnv): Pick<ClientConfig, 'ssl'> {
  if (sslmode === 'disable' || host.startsWith('/')) return { ssl: false };
  if (sslmode === 'verify-ca' || sslmode === 'verify-full') {
    const rootCert = env.PGSSLROOTCERT;
    return {
      ssl: {
        ...(rootCert ? { ca: readFileSync(rootCert, 'utf8') } : {}),
        ...(sslmode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
      },
    };
  }
  return { ssl: { rejectUnauthorized: false } };
}

/** The first matching ~/.pgpass line's password (`*` any, `\` escapes); skipped if others can read it. */
export function pgpassLookup(
  file: string,
  host: string,
  port: number,
  database: string,
  user: string,
): string | undefined {
  let text: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0) return undefined;
    text = readFileSync(file, 'utf8').slice(0, 1 << 20);
  } catch {
    return undefined;
  }
  const wanted = [host, String(port), database, user];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#')) continue;
    const fields: string[] = [];
    let field = '';
    for (let at = 0; at < line.length; at++) {
      const char = line[at] as string;
      if (char === '\\' && at + 1 < line.length) field += line[++at];
      else if (char === ':') {
        fields.push(field);
        field = '';
      } else field += char;
    }
    fields.push(field);
    if (fields.length >= 5 && wanted.every((value, at) => fields[at] === '*' || fields[at] === value)) {
      return fields.slice(4).join(':');
    }
  }
  return undefined;
}

export async function openPostgres(url: string, env: NodeJS.ProcessEnv): Promise<SqlEngine> {
  const target = pgTarget(url, env);
  const { label } = target;
  if (target.password) rememberSecret(target.password);
  const { default: pg } = await import('pg');
  const password = async () => {
    if (target.password !== undefined) return target.password;
    throw new UsageError(`${label} asks for a password`, `give it through ${target.passwordPlaces}`);
  };
  const connect = async (config: ClientConfig) => {
    // json as the text stored (the item as sent), not parsed.
    const types = {
      getTypeParser: ((oid: number, format?: 'text') =>
        oid === 114 ? String : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    };
    const client = new pg.Client({ ...config, password, types });
    // A connection lost between statements: the next statement fails and says so.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (error) {
      // A refused login leaves the socket open until the server's authentication timeout (60 s).
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      throw error;
    }
    return client;
  };
  let client: InstanceType<typeof pg.Client>;
  try {
    try {
      client = await connect(target.config);
    } catch (error) {
      // prefer and allow: encrypted where the server can, plain where it cannot (as libpq does).
      const plainAllowed = target.sslmode === 'prefer' || target.sslmode === 'allow';
      if (!plainAllowed || !/does not support SSL/i.test(reasonOf(error))) throw error;
      client = await connect({ ...target.config, ssl: false });
    }
    await client.query("SET TimeZone = 'UTC'");
  } catch (error) {
    throw pgError(error, label, 'open');
  }
  const names = new Map<string, { name: string; text: string }>();
  const guarded = async <T>(work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      throw pgError(error, label);
    }
  };
  const query = (sql: string, params: readonly SqlValue[]) => {
    let n = 0;
    const prepared = names.get(sql) ?? {
      name: `leadctl_${names.size}`,
      text: sql.replace(/\?/g, () => `$${++n}`),
    };
    names.set(sql, prepared);
    return guarded(() => client.query({ ...prepared, values: params as SqlValue[] }));
  };
  return {
    kind: 'postgres',
    label,
    all: async (sql, params = []) => (await query(sql, params)).rows.map(plainRow),
    run: async (sql, params = []) => (await query(sql, params)).rowCount ?? 0,
    exec: async (script) => {
      await guarded(() => client.query(script));
    },
    lockAccount: async (account) => {
      const key = `leadctl sync ${account}`;
      const [got] = (await query('SELECT pg_try_advisory_lock(hashtextextended(?, 0)) AS locked', [key]))
        .rows;
      if (got?.locked !== true) {
        const { rows } = await query(
          `SELECT a.application_name AS holder, a.backend_start AS since FROM pg_locks l
             JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(?, 0)`,
          [key],
        );
        const holder = plainRow(rows[0] ?? {});
        const [, pid, host] = /^leadctl (\d+) (.+)$/.exec(String(holder.holder ?? '')) ?? [];
        const who = pid
          ? `leadctl sync (pid ${pid} on ${host}, since ${holder.since})`
          : 'another leadctl sync';
        throw new UsageError(
          `account ${account} in ${label} is being synced by ${who}; one writer per account`,
          'wait for it to finish: its lock ends with its connection',
        );
      }
      return async () => {
        await query('SELECT pg_advisory_unlock(hashtextextended(?, 0))', [key]);
      };
    },
    close: async () => {
      await client.end().catch(() => {});
    },
  };
}

/** Dates (timestamptz) as ISO 8601 text, as SQLite stores them. */
function plainRow(row: Record<string, unknown>): SqlRow {
  const plain: SqlRow = {};
  for (const [key, value] of Object.entries(row)) {
    plain[key] = value instanceof Date ? value.toISOString() : (value as SqlValue);
  }
  return plain;
}

/** The server's words, never the password; a full disk is exit 1, the rest exit 2 with the fix. */
function pgError(error: unknown, label: string, phase: 'open' | 'write' = 'write'): LeadError {
  if (error instanceof LeadError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  // The server's own sentence; a refused connection has none but its code.
  const reason = error instanceof Error && error.message ? error.message : reasonOf(error);
  if (code === '53100') {
    return new LeadError(`cannot write database ${label}: ${reason}`, {
      exitCode: 1,
      hint: 'free some space on the database server: the rows committed so far are kept',
    });
  }
  const hints: Record<string, string> = {
    '28P01': 'check the user and its password (PGPASSWORD, ~/.pgpass, or the stored db-url)',
    '3D000': 'create the database (docs/sync.md, "PostgreSQL for a team"), or name another',
    '42501': 'the role lacks a right leadctl needs: docs/sync.md lists them',
    ECONNREFUSED: 'is the server running, and listening on that host and port?',
  };
  return new UsageError(`cannot ${phase} database ${label}: ${reason}`, hints[code]);
}
