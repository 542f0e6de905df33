// The usage recorder of one process: what it counts, and that a write of the ledger that failed
// loses nothing (`leadctl mcp` writes after every call, and its daily cap reads the ledger plus what
// the recorder has not written yet).
import { mkdirSync, rmdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { ledgerKey } from '../../src/usage/ledger.js';
import { createUsageRecorder } from '../../src/usage/recorder.js';
import { usageTotals } from '../../src/usage/report.js';
import { tempDir } from '../helpers/temp.js';

const key = ledgerKey('default', 'https://api.example.com', 'flag');
const search = {
  method: 'POST',
  url: 'https://api.example.com/api/v1/search',
  attempt: 1,
  status: 200,
  ms: 5,
  sent: true,
};
const list = { method: 'GET', url: 'https://api.example.com/api/v1/leads', attempt: 1, status: 200, ms: 5 };

it('keeps the counts of a ledger write that failed and adds them at the next write', async () => {
  const warnings: string[] = [];
  const recorder = createUsageRecorder({
    env: { XDG_STATE_HOME: tempDir('recorder') },
    key,
    plan: undefined,
    warn: (message) => warnings.push(message),
  });
  // A folder where the ledger file belongs: the write fails (as root too, unlike a file mode).
  mkdirSync(recorder.file);
  recorder.hooks.onAttempt?.(search);
  await recorder.flush();
  expect(warnings).toEqual([
    expect.stringMatching(/^this run's requests were not added to the usage ledger /),
  ]);
  const today = () => usageTotals(recorder.file, key, recorder.run, Date.now()).today;
  expect(today()).toMatchObject({ requests: 1, searches: 1 });

  rmdirSync(recorder.file);
  recorder.hooks.onAttempt?.(list);
  await recorder.flush();
  expect(recorder.run.size).toBe(0);
  expect(usageTotals(recorder.file, key, new Map(), Date.now()).today).toMatchObject({
    requests: 2,
    searches: 1,
  });
});
