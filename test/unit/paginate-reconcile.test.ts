import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/api/errors.js';
import { newLedger, reconcile } from '../../src/api/paging/reconcile.js';

const ledger = (fields: Partial<ReturnType<typeof newLedger>>) => ({ ...newLedger(), ...fields });

describe('reconcile', () => {
  it('says nothing when an unchanged list was written in full', () => {
    expect(reconcile(ledger({ startTotal: 250, endTotal: 250, written: 250 }))).toEqual([]);
  });

  it('refuses an unchanged list whose pages held fewer items than its total', () => {
    expect(() => reconcile(ledger({ startTotal: 250, endTotal: 250, written: 240 }))).toThrow(ProtocolError);
    expect(() => reconcile(ledger({ startTotal: 250, endTotal: 250, written: 240 }))).toThrow(
      "the server's counts do not add up: meta.total says 250, but its pages held 240 items; 240 written",
    );
  });

  it('counts repeated ids as items that arrived, and says how many were left out', () => {
    expect(reconcile(ledger({ startTotal: 250, endTotal: 250, written: 246, repeats: 4 }))).toEqual([
      'Left out 4 items whose id had already been written (the server sent the same id more than once)',
    ]);
  });

  it('says when items written on a re-read from page 2 may stand out of order', () => {
    const notices = reconcile(
      ledger({ startTotal: 35, endTotal: 35, written: 31, changed: true, rereadWritten: 27 }),
    );
    expect(notices.slice(-1)).toEqual([
      "It changed faster than the pages read side by side could vouch for, so the list was read again from page 2: 27 items written then may stand out of the server's order (--concurrency 1 keeps it)",
    ]);
  });

  it('blames the moving list, not the server, for repeats when the list changed', () => {
    const notices = reconcile(
      ledger({ startTotal: 250, endTotal: 240, written: 240, repeats: 1, changed: true }),
    );
    expect(notices[0]).toBe(
      'Left out 1 item whose id had already been written (the list changed between pages, so it arrived twice)',
    );
  });

  it('explains a list that changed, with the leads saved meanwhile that are not in the export', () => {
    const notices = reconcile(
      ledger({ startTotal: 250, endTotal: 248, written: 245, changed: true, savedUnseen: 3 }),
    );
    expect(notices).toEqual([
      'The list changed during the export (250 items at the start, 248 at the end): every item present throughout was written once; 3 saved meanwhile are not in it',
    ]);
  });

  it('checks no counts when --max-items or --since ended the run', () => {
    expect(reconcile(ledger({ startTotal: 250, endTotal: 250, written: 10, stoppedEarly: true }))).toEqual(
      [],
    );
  });

  it('leaves out the items before the start page', () => {
    expect(reconcile(ledger({ startTotal: 250, endTotal: 250, written: 50, offset: 200 }))).toEqual([]);
  });
});

describe('reconcile at its boundary', () => {
  it('refuses an unchanged list one item short, and accepts it exactly full', () => {
    expect(() => reconcile(ledger({ startTotal: 250, endTotal: 250, written: 249 }))).toThrow(ProtocolError);
    expect(() => reconcile(ledger({ startTotal: 250, endTotal: 250, written: 248, repeats: 1 }))).toThrow(
      ProtocolError,
    );
    expect(reconcile(ledger({ startTotal: 250, endTotal: 250, written: 249, repeats: 1 }))).toHaveLength(1);
  });

  it('refuses a run from a later page one item short of what its total leaves', () => {
    expect(() => reconcile(ledger({ startTotal: 250, endTotal: 250, written: 49, offset: 200 }))).toThrow(
      ProtocolError,
    );
  });
});

it('names a single lead saved meanwhile, and says nothing of saves when there were none', () => {
  const changed = { startTotal: 250, endTotal: 251, written: 250, changed: true };
  expect(reconcile(ledger({ ...changed, savedSkipped: 1 }))).toEqual([
    'The list changed during the export (250 items at the start, 251 at the end): every item present throughout was written once; 1 saved meanwhile is not in it',
  ]);
  expect(reconcile(ledger({ ...changed, savedUnseen: 0 }))).toEqual([
    'The list changed during the export (250 items at the start, 251 at the end): every item present throughout was written once',
  ]);
});
