// Every batch input is read under stated ceilings (rows, bytes; a workbook's parts before and while
// they unpack), one line past each naming the flag that raises it, and the run's abort signal ends
// the read at once. In-process: the process-level cases (memory, signals) are in
// test/process/batch-input-bounds.test.ts.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/api/errors.js';
import { DEFAULT_MAX_INPUT_ROWS } from '../../src/batch/load-input.js';
import { chunked, planOf } from '../helpers/batch-input.js';
import { bombPart, honestPart, workbookParts, zipArchive } from '../helpers/zip.js';

const rows = (n: number) =>
  `query,location\n${Array.from({ length: n }, (_, i) => `plumber ${i},Austin\n`).join('')}`;

/** Rows without end, as a FIFO fed by a loop would give them. */
function endlessRows(): Readable {
  let i = 0;
  return new Readable({
    read() {
      this.push(
        i === 0 ? 'query,location\n' : Array.from({ length: 100 }, () => `plumber ${i++},Austin\n`).join(''),
      );
      i ||= 1;
    },
  });
}

/** A sheet of inline strings, as a workbook part. */
function sheetXml(table: string[][]): string {
  const cell = (text: string, column: number, row: number) =>
    `<c r="${String.fromCharCode(65 + column)}${row}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const body = table
    .map((cells, r) => `<row r="${r + 1}">${cells.map((text, c) => cell(text, c, r + 1)).join('')}</row>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}
const SHEET = 'xl/worksheets/sheet1.xml';

describe('the row ceiling', () => {
  it('refuses one row past --max-input-rows in one line naming the flag; at the ceiling the plan is whole', async () => {
    await expect(planOf(rows(4), { maxInputRows: 3 })).rejects.toThrowError(
      /^standard input has more than 3 rows, the batch input ceiling; nothing was searched \(raise it with --max-input-rows\)$/,
    );
    expect((await planOf(rows(3), { maxInputRows: 3 })).searches).toBe(3);
  });

  it(`ends an endless input at the default of ${DEFAULT_MAX_INPUT_ROWS.toLocaleString('en-US')} rows`, async () => {
    await expect(planOf(endlessRows())).rejects.toThrowError(
      'standard input has more than 50,000 rows, the batch input ceiling; nothing was searched (raise it with --max-input-rows)',
    );
  });

  it('counts bad rows too, and a workbook’s rows the same way', async () => {
    await expect(planOf(`query,location\n${',x\n'.repeat(4)}`, { maxInputRows: 3 })).rejects.toThrowError(
      /has more than 3 rows/,
    );
    const table = [['query', 'location'], ...Array.from({ length: 4 }, (_, i) => [`q${i}`, 'Austin'])];
    const workbook = zipArchive(workbookParts(honestPart(SHEET, sheetXml(table))));
    await expect(planOf(workbook, { maxInputRows: 3 })).rejects.toThrowError(/has more than 3 rows/);
    expect((await planOf(workbook, { maxInputRows: 4 })).searches).toBe(4);
  });
});

describe('the byte ceiling', () => {
  it('refuses an input past --max-input-bytes in one line naming the flag, as it is read', async () => {
    const text = rows(10);
    await expect(planOf(text, { maxInputBytes: text.length - 1 })).rejects.toThrowError(
      /^standard input is larger than \d+ bytes, the batch input ceiling; nothing was searched \(raise it with --max-input-bytes\)$/,
    );
    expect((await planOf(text, { maxInputBytes: text.length })).searches).toBe(10);
  });

  it('refuses a row that never ends (no line break in a megabyte) as a bad row', async () => {
    const text = `query,location\n${'x'.repeat(2 ** 20 + 10)}`;
    await expect(planOf(chunked(text, 65536))).rejects.toThrowError(
      'standard input has 1 bad row; nothing was searched\n  line 2: a row longer than 1 MiB (a quoted field that is never closed?)',
    );
    const json = `{"query":"a","location":"b"}\n${'{'.repeat(2 ** 20 + 10)}`;
    await expect(planOf(chunked(json, 65536))).rejects.toThrowError('  line 2: a line longer than 1 MiB');
  });
});

describe('what a run holds', () => {
  it('a dry run keeps the count, the repeats and the fingerprint, not the rows', async () => {
    const text = `${rows(5)}plumber 1,Austin\n`;
    const full = await planOf(text);
    const dry = await planOf(text, {}, { keepRows: false });
    expect(full.unique).toHaveLength(5);
    expect(dry).toEqual({ ...full, unique: [] });
  });
});

describe('the abort signal', () => {
  it('ends a read that waits for bytes that never come, with the signal’s reason', async () => {
    const controller = new AbortController();
    const silent = new Readable({ read() {} });
    silent.push('query,location\nplumber,Austin\n');
    const reading = planOf(silent, {}, { signal: controller.signal });
    setImmediate(() => controller.abort(new InterruptedError()));
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
    expect(silent.destroyed).toBe(true);
  });

  it('ends a read of rows without end', async () => {
    const controller = new AbortController();
    const endless = endlessRows();
    const reading = planOf(endless, { maxInputRows: Number.MAX_SAFE_INTEGER }, { signal: controller.signal });
    endless.once('data', () => controller.abort(new InterruptedError()));
    await expect(reading).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('text that is not UTF-8', () => {
  it('names the line of the first bad byte, wherever the chunks split the text', async () => {
    const text = Buffer.concat([
      Buffer.from('query,location\nplumber,Montréal\nroofer,Zürich\n'),
      Buffer.from([0x66, 0xe9, 0x2c, 0x78, 0x0a]),
    ]);
    for (const size of [1, 2, 3, 7, 4096]) {
      await expect(planOf(chunked(text, size))).rejects.toThrowError(
        'standard input is not UTF-8 text (line 4); nothing was searched',
      );
    }
    expect((await planOf(chunked('query,location\nplumber,Montréal\n', 1))).unique[0]?.location).toBe(
      'Montréal',
    );
    // A chunk that begins inside a character (ü split after its first byte), with a bad byte a line later.
    const split = [
      Buffer.from('query,location\nplumber,Z\xc3', 'latin1'),
      Buffer.from('\xbcrich\nf\xe9,x\n', 'latin1'),
    ];
    await expect(planOf(Readable.from(split))).rejects.toThrowError(
      'standard input is not UTF-8 text (line 3)',
    );
  });

  it('refuses NUL bytes (what /dev/zero sends) in one line, at the first chunk', async () => {
    await expect(planOf(Buffer.alloc(100))).rejects.toThrowError(
      /^standard input is not UTF-8 text \(it holds NUL bytes: UTF-16 without a byte-order mark\?\); nothing was searched \(save it as "CSV UTF-8", or: iconv -f utf-16le -t utf-8 in\.txt > in\.csv\)$/,
    );
  });
});

describe('a workbook is checked before it is unpacked', () => {
  it('refuses a zip bomb from its directory, saying why', async () => {
    const bomb = zipArchive(workbookParts(bombPart(SHEET, 64)));
    expect(bomb.length).toBeLessThan(200_000);
    await expect(planOf(bomb)).rejects.toThrowError(
      /^standard input is refused: its part xl\/worksheets\/sheet1\.xml unpacks to 64 MiB from \d+ bytes, over 100 times its size: a zip bomb, not a spreadsheet; nothing was searched$/,
    );
  });

  it('refuses a part that says it unpacks past the byte ceiling, naming the flag', async () => {
    const table = [['query', 'location'], ...Array.from({ length: 200 }, () => ['plumber', 'Austin'])];
    const sheet = honestPart(SHEET, sheetXml(table));
    const workbook = zipArchive(workbookParts(sheet));
    expect(workbook.length).toBeLessThan(sheet.size - 1);
    await expect(planOf(workbook, { maxInputBytes: sheet.size - 1 })).rejects.toThrowError(
      `standard input is refused: its part xl/worksheets/sheet1.xml unpacks to ${sheet.size} bytes, over the batch input ceiling of ${sheet.size - 1} bytes; nothing was searched (raise it with --max-input-bytes)`,
    );
    expect((await planOf(workbook, { maxInputBytes: sheet.size })).searches).toBe(1);
  });

  it('does not trust what a part declares: it stops unpacking at the declared size', async () => {
    // 64 MiB that claims 100 KiB: within every ceiling on paper.
    const liar = zipArchive(workbookParts(bombPart(SHEET, 64, 100 * 1024)));
    await expect(planOf(liar)).rejects.toThrowError(
      'standard input is refused: its part xl/worksheets/sheet1.xml unpacks to more than the 102400 bytes it declares; nothing was searched',
    );
  });

  it('refuses a damaged zip in one message, never an internal error', async () => {
    const workbook = zipArchive(workbookParts(honestPart(SHEET, sheetXml([['query', 'location']]))));
    const directory = workbook.readUInt32LE(workbook.length - 6);
    const farDirectory = Buffer.from(workbook);
    farDirectory.writeUInt32LE(workbook.length - 10, workbook.length - 6);
    await expect(planOf(farDirectory)).rejects.toThrowError('(its zip directory is damaged)');
    const farPart = Buffer.from(workbook);
    farPart.writeUInt32LE(workbook.length - 4, directory + 42);
    await expect(planOf(farPart)).rejects.toThrowError(
      '(its part [Content_Types].xml lies outside the file)',
    );
  });

  it('refuses what is not a workbook in the library’s place, without its words', async () => {
    const broken = zipArchive([honestPart('notes.txt', 'hello')]);
    await expect(planOf(broken)).rejects.toThrowError(
      'cannot read standard input as an Excel workbook (it has no xl/workbook.xml); nothing was searched',
    );
  });
});
