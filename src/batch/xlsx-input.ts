// `search --input leads.xlsx`: the first sheet's rows as records, each cell as the text the sheet shows.
// Each part is checked from the zip's central directory before anything is unpacked (the input ceiling,
// zip bombs), then unpacked here, stopped at its declared size, for exceljs's streaming readers.
import { PassThrough, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
// @ts-expect-error exceljs declares types for its whole-library entry only; this module is its
// streaming reader alone.
import WorkbookReader from 'exceljs/lib/stream/xlsx/workbook-reader.js';
import { LeadError, UsageError } from '../api/errors.js';
import { describeBytes } from '../api/parse-response.js';
import type { CsvRecord } from './csv-records.js';

/** Packed to unpacked beyond this (Apache POI's default) is a zip bomb, not a spreadsheet (they pack 3 to 15 to 1). */
export const MAX_UNPACK_RATIO = 100;
/** A part this small cannot hurt, whatever its ratio. */
const RATIO_GRACE_BYTES = 2 ** 20;

interface ZipPart {
  name: string;
  method: number;
  packed: number;
  size: number;
  offset: number;
}

/** The parts of exceljs's streaming reader used here: it parses each part from a stream it is handed. */
interface Reader {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(chunks: AsyncIterable<Buffer>, sheetNo: string): Iterable<{ value: SheetReader }>;
  workbookRels?: Array<{ Id: string; Target: string }>;
  model?: { sheets?: Array<{ rId: string }> };
}
/** Its rows come in batches, one per chunk of the sheet parsed. */
interface SheetReader {
  parse(): AsyncIterable<Array<{ eventType: string; value: Row }>>;
}
interface Row {
  number: number;
  hasValues: boolean;
  eachCell(options: { includeEmpty: boolean }, each: (cell: Cell, column: number) => void): void;
}
interface Cell {
  value: unknown;
  numFmt?: string;
  text?: string;
}

export async function* xlsxRecords(
  bytes: Buffer,
  source: string,
  maxBytes: number,
  signal: AbortSignal,
): AsyncGenerator<CsvRecord[]> {
  const reader: Reader = new WorkbookReader(Readable.from([]), { sharedStrings: 'cache', styles: 'cache' });
  try {
    const parts = new Map(zipDirectory(bytes, source).map((part) => [part.name, part]));
    for (const part of parts.values()) checkPart(part, source, maxBytes);
    const stream = (name: string) => {
      const part = parts.get(name);
      return part && Readable.from(unpacked(bytes, part, source, signal));
    };
    const [rels, book] = [stream('xl/_rels/workbook.xml.rels'), stream('xl/workbook.xml')];
    if (!rels || !book) throw new Error('it has no xl/workbook.xml');
    await reader._parseRels(rels);
    await reader._parseWorkbook(book);
    const strings = stream('xl/sharedStrings.xml');
    if (strings) for await (const _ of reader._parseSharedStrings(strings));
    const styles = stream('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);
    // The first sheet in tab order (the one the workbook opens on), wherever its part is.
    const first = reader.model?.sheets?.[0];
    const target = reader.workbookRels?.find((rel) => rel.Id === first?.rId)?.Target;
    const part =
      target === undefined ? undefined : parts.get(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    if (!part) return;
    for (const { value: sheet } of reader._parseWorksheet(unpacked(bytes, part, source, signal), '1')) {
      for await (const events of sheet.parse())
        yield events.flatMap(({ eventType, value }) =>
          eventType === 'row' && value.hasValues ? [record(value)] : [],
        );
    }
  } catch (error) {
    throw error instanceof LeadError ? error : notAWorkbook(error, source);
  }
}

/** Each cell as the text the sheet shows; a whole number under a format of zeros ("00000", ZIP codes) zero-padded. */
function record(row: Row): CsvRecord {
  const fields: string[] = [];
  row.eachCell({ includeEmpty: true }, ({ value, numFmt, text }, column) => {
    const padded =
      typeof value === 'number' && Number.isInteger(value) && value >= 0 && /^0+$/.test(numFmt ?? '');
    fields[column - 1] = padded ? String(value).padStart(numFmt?.length ?? 0, '0') : (text ?? '');
  });
  return { line: row.number, fields: Array.from(fields, (field) => field ?? '') };
}

function notAWorkbook(reason: unknown, source: string): UsageError {
  return new UsageError(
    `cannot read ${source} as an Excel workbook (${reason instanceof Error ? reason.message : String(reason)}); nothing was searched`,
    'save it from the spreadsheet as .xlsx, or as "CSV UTF-8"',
  );
}

/** The zip's central directory: every part's name, packing and sizes, read before anything is unpacked. */
function zipDirectory(bytes: Buffer, source: string): ZipPart[] {
  // The end record is in the last 22 bytes, or before a comment of at most 65,535.
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), bytes.length - 22);
  if (end < 0 || end < bytes.length - 22 - 0xffff) throw notAWorkbook('its zip directory is missing', source);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const parts: ZipPart[] = [];
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) {
      throw notAWorkbook('its zip directory is damaged', source);
    }
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const local = bytes.readUInt32LE(at + 42);
    if (local + 30 > bytes.length) throw notAWorkbook(`its part ${name} lies outside the file`, source);
    const part = {
      name,
      method: (bytes.readUInt16LE(at + 8) & 1) === 1 ? -1 : bytes.readUInt16LE(at + 10),
      packed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      offset: local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28),
    };
    if (part.offset + part.packed > bytes.length)
      throw notAWorkbook(`its part ${name} lies outside the file`, source);
    parts.push(part);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return parts;
}

function checkPart(part: ZipPart, source: string, maxBytes: number): void {
  const refuse = (why: string, fix = '') =>
    new UsageError(`${source} is refused: its part ${part.name} ${why}; nothing was searched${fix}`);
  if (part.method !== 0 && part.method !== 8)
    throw notAWorkbook(
      `its part ${part.name} is encrypted or packed in a way a spreadsheet does not use`,
      source,
    );
  if (part.size > RATIO_GRACE_BYTES && part.size > part.packed * MAX_UNPACK_RATIO) {
    throw refuse(
      `unpacks to ${describeBytes(part.size)} from ${describeBytes(part.packed)}, over ${MAX_UNPACK_RATIO} times its size: a zip bomb, not a spreadsheet`,
    );
  }
  if (part.size > maxBytes) {
    throw refuse(
      `unpacks to ${describeBytes(part.size)}, over the batch input ceiling of ${describeBytes(maxBytes)}`,
      ' (raise it with --max-input-bytes)',
    );
  }
}

/** A part's bytes as they unpack, never more than it declared. */
async function* unpacked(
  bytes: Buffer,
  part: ZipPart,
  source: string,
  signal: AbortSignal,
): AsyncGenerator<Buffer> {
  const unpacking = part.method === 8 ? createInflateRaw() : new PassThrough();
  unpacking.end(bytes.subarray(part.offset, part.offset + part.packed));
  let total = 0;
  try {
    for await (const chunk of unpacking as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      total += chunk.length;
      if (total > part.size) {
        throw new UsageError(
          `${source} is refused: its part ${part.name} unpacks to more than the ${describeBytes(part.size)} it declares; nothing was searched`,
        );
      }
      yield chunk;
    }
  } finally {
    unpacking.destroy();
  }
}
