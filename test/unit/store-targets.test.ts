// Which database a run uses and how a postgres:// URL is read, as libpq reads it: the URL first, then
// PGHOST, PGPORT, PGUSER, PGDATABASE, PGSSLMODE; the password from the URL (only a stored db-url may
// hold one), PGPASSWORD or ~/.pgpass; never shown in the label.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTarget } from '../../src/store/paths.js';
import { pgpassLookup, pgTarget } from '../../src/store/postgres.js';
import { tempDir } from '../helpers/temp.js';

describe('databaseTarget', () => {
  it('--db wins, then the profile db-url, then the default SQLite file', () => {
    const env = { HOME: '/home/ann' };
    expect(databaseTarget('agency.db', 'postgres://x@h/d', env)).toEqual({
      kind: 'sqlite',
      file: 'agency.db',
      isDefault: false,
    });
    expect(databaseTarget('postgresql://x@h/d', undefined, env)).toEqual({
      kind: 'postgres',
      url: 'postgresql://x@h/d',
    });
    expect(databaseTarget(undefined, 'postgres://x:pw@h/d', env)).toEqual({
      kind: 'postgres',
      url: 'postgres://x:pw@h/d',
    });
    expect(databaseTarget(undefined, undefined, env)).toEqual({
      kind: 'sqlite',
      file: '/home/ann/.local/share/leadctl/leads.db',
      isDefault: true,
    });
  });

  it('refuses a password in --db without echoing it', () => {
    expect(() => databaseTarget('postgres://ann:hunter22@h/d', undefined, {})).toThrow(
      '--db must not hold a password: the process list and shell history would show it',
    );
  });
});

describe('pgTarget', () => {
  const noPgpass = { HOME: '/nonexistent' };

  it('takes the URL first, then the PG* variables, then libpq defaults', () => {
    const env = { ...noPgpass, PGHOST: 'envhost', PGPORT: '6543', PGUSER: 'envuser', PGDATABASE: 'envdb' };
    const fromUrl = pgTarget('postgres://ann@db.example:5433/agency', env);
    expect(fromUrl.config).toMatchObject({ host: 'db.example', port: 5433, user: 'ann', database: 'agency' });
    const fromEnv = pgTarget('postgres://', env);
    expect(fromEnv.config).toMatchObject({ host: 'envhost', port: 6543, user: 'envuser', database: 'envdb' });
    expect(fromEnv.label).toBe('postgres://envuser@envhost:6543/envdb');
    const defaults = pgTarget('postgresql://bob@/', noPgpass);
    expect(defaults.config).toMatchObject({ host: 'localhost', port: 5432, user: 'bob', database: 'bob' });
  });

  it('keeps the password out of the label: from the URL, else PGPASSWORD, else ~/.pgpass', () => {
    const stored = pgTarget('postgres://ann:p%40ss@h/d', { ...noPgpass, PGPASSWORD: 'env' });
    expect(stored.password).toBe('p@ss');
    expect(stored.label).toBe('postgres://ann@h:5432/d');
    expect(pgTarget('postgres://ann@h/d', { ...noPgpass, PGPASSWORD: 'env' }).password).toBe('env');
  });

  it('reads sslmode as libpq does: require encrypts unchecked, verify-full checks, disable and sockets are plain', () => {
    expect(pgTarget('postgres://a@h/d?sslmode=require', noPgpass).config.ssl).toEqual({
      rejectUnauthorized: false,
    });
    expect(pgTarget('postgres://a@h/d', { ...noPgpass, PGSSLMODE: 'verify-full' }).config.ssl).toEqual({});
    expect(
      pgTarget('postgres://a@h/d?sslmode=disable', { ...noPgpass, PGSSLMODE: 'require' }).config.ssl,
    ).toBe(false);
    expect(pgTarget('postgres://a@/d?host=/var/run/postgresql', noPgpass).config).toMatchObject({
      host: '/var/run/postgresql',
      ssl: false,
    });
    expect(() => pgTarget('postgres://a@h/d?sslmode=sometimes', noPgpass)).toThrow(
      'invalid sslmode "sometimes"',
    );
  });
});

describe('pgpassLookup', () => {
  it('takes the first matching line, with * and \\ escapes; ignores a file others can read', () => {
    const file = join(tempDir(), 'pgpass');
    writeFileSync(
      file,
      '# comment\nother:5432:*:ann:wrong\ndb.example:*:agency:ann:se\\:cr\\\\et\n*:*:*:*:fallback\n',
      { mode: 0o600 },
    );
    expect(pgpassLookup(file, 'db.example', 5432, 'agency', 'ann')).toBe('se:cr\\et');
    expect(pgpassLookup(file, 'elsewhere', 5432, 'x', 'y')).toBe('fallback');
    writeFileSync(file, '*:*:*:*:open\n');
    chmodSync(file, 0o644);
    expect(pgpassLookup(file, 'h', 5432, 'd', 'u')).toBeUndefined();
  });
});
