// Reading and updating the ledger file. Reads are plain (every write replaces the file by rename, so
// a reader sees a whole old or a whole new file); an update takes the lock the config's writes take
// (config/file-lock.ts), re-reads inside it and adds this run's counts, so runs that end at the same
// time each keep their counts. A file that fails the schema is never fatal: it is reported once and
// replaced by a new ledger.
import fs from 'node:fs';
import path from 'node:path';
import { withFileLock } from '../config/file-lock.js';
import { describeFsError, errorCode } from '../config/store.js';
import { emptyLedger, LEDGER, type Ledger } from './ledger-schema.js';

export interface LedgerRead {
  ledger: Ledger;
  /** Why an existing file was not usable (then `ledger` is empty). */
  problem?: string;
}

export function readLedger(file: string): LedgerRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return { ledger: emptyLedger() };
    return { ledger: emptyLedger(), problem: describeFsError(error) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ledger: emptyLedger(), problem: 'it is not valid JSON' };
  }
  const checked = LEDGER.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    return { ledger: emptyLedger(), problem: `it is not a usage ledger of this leadctl${where}` };
  }
  return { ledger: checked.data };
}

/**
 * Applies `change` to the ledger under the lock and writes it back (0600, atomically). Returns the
 * problem of the file it found, if it had to start a new one. Throws on a lock or file system failure.
 */
export function updateLedger(file: string, change: (ledger: Ledger) => Ledger): Promise<string | undefined> {
  return withFileLock(file, (lock) => {
    const { ledger, problem } = readLedger(file);
    const text = `${JSON.stringify(change(ledger))}\n`;
    lock.check();
    writeAtomically(file, text);
    return problem;
  });
}

function writeAtomically(file: string, text: string): void {
  const temporary = path.join(
    path.dirname(file),
    // pid and a random part (not node:crypto: start-up cost); 'wx' refuses any name already there.
    `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`,
  );
  try {
    fs.writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
