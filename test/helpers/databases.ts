// The two engines a leadctl database can live in, as tests meet them: a fresh empty database per test
// (a SQLite file in a temp folder, or a PostgreSQL database on the run's test server, dropped when the
// test ends), what `--db` is given, the environment the leadctl process needs (PGPASSWORD), and a
// reader of its own (the sqlite3 shell; a separate pg connection) for what landed in the tables.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import {
  ENGINE_SKIP_REASON,
  HAS_NODE_SQLITE,
  HAS_SQLITE3_SHELL,
  SHELL_SKIP_REASON,
  sqliteRows,
} from './sqlite-shell.js';
import { tempDir } from './temp.js';

export interface TestDatabase {
  /** The --db value: a file, or a URL without a password. */
  db: string;
  /** Environment for the leadctl process (the password, as a user gives it). */
  env: Record<string, string>;
  rows(sql: string): Promise<Record<string, unknown>[]>;
  /** The first column of the first row, as a number: `select count(*) from leads`. */
  number(sql: string): Promise<number>;
}

export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** Why this engine's tests skip here, or undefined. */
  skip: string | undefined;
  fresh(): Promise<TestDatabase>;
}

const firstNumber = (rows: Record<string, unknown>[]) => Number(Object.values(rows[0] ?? {})[0]);

export const SQLITE: TestEngine = {
  name: 'sqlite',
  skip: !HAS_NODE_SQLITE ? ENGINE_SKIP_REASON : !HAS_SQLITE3_SHELL ? SHELL_SKIP_REASON : undefined,
  fresh: async () => {
    const db = join(tempDir(), 'leads.db');
    const rows = (sql: string) => sqliteRows(db, sql);
    return { db, env: {}, rows, number: async (sql) => firstNumber(await rows(sql)) };
  },
};

const SERVER = process.env.TEST_POSTGRES_URL;
const PASSWORD = process.env.TEST_POSTGRES_PASSWORD ?? '';

/** The test server's role (it may create databases and roles), connected to `database`. */
export async function adminClient(database = 'postgres'): Promise<pg.Client> {
  const url = new URL(SERVER as string);
  const client = new pg.Client({
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    database,
    password: PASSWORD,
  });
  // A database dropped at a test's end ends its connections: not an error of the test.
  client.on('error', () => {});
  await client.connect();
  return client;
}

export const POSTGRES: TestEngine = {
  name: 'postgres',
  skip: SERVER ? undefined : `needs PostgreSQL: ${process.env.TEST_POSTGRES_MISSING ?? 'no test server'}`,
  fresh: async () => {
    const name = `leadctl_${randomBytes(6).toString('hex')}`;
    const admin = await adminClient();
    await admin.query(`CREATE DATABASE ${name}`);
    let reader: Promise<pg.Client> | undefined;
    onTestFinished(async () => {
      await (await reader)?.end();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(SERVER as string);
    url.pathname = `/${name}`;
    const rows = async (sql: string) => {
      reader ??= adminClient(name);
      const result = await (await reader).query(sql);
      return result.rows.map((row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v])),
      );
    };
    return {
      db: url.href,
      env: { PGPASSWORD: PASSWORD },
      rows,
      number: async (sql) => firstNumber(await rows(sql)),
    };
  },
};

export const ENGINES = [SQLITE, POSTGRES];
