// RFC 4180 records with the line each one starts on, so that validation can point at "line 7". The
// parsing is csv-parse's (sync API); liberal in what it reads: CRLF, LF or CR (mixed too), a leading
// byte-order mark, quoted fields spanning lines, a stray quote inside an unquoted field kept as text.
// csv-parse's own line count adds a quoted CRLF up as two lines, so the start lines are counted here
// from the bytes it consumed: a CRLF, LF or lone CR is one line break.
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
}

export interface CsvParse {
  records: CsvRecord[];
  /** A quote that never closes swallows the rest of the file: reported (the line its record starts on), not guessed around. */
  unterminatedQuoteLine?: number;
}

/** The field separators a spreadsheet writes: comma, semicolon (European Excel), tab ("Unicode text"). */
export type CsvDelimiter = ',' | ';' | '\t';

export function parseCsvRecords(text: string, delimiter: CsvDelimiter = ','): CsvParse {
  const bytes = Buffer.from(text, 'utf8');
  const records: CsvRecord[] = [];
  let line = 1;
  let offset = 0;
  try {
    parse(bytes, {
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      // Records are collected as they come, so those before an unclosed quote are kept.
      on_record: (fields: string[], context) => {
        records.push({ line, fields });
        line += lineBreaks(bytes, offset, context.bytes);
        offset = context.bytes;
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError) || error.code !== 'CSV_QUOTE_NOT_CLOSED') throw error;
    return { records, unterminatedQuoteLine: line };
  }
  return { records };
}

function lineBreaks(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index += 1) {
    const byte = bytes[index];
    if (byte === 0x0a) count += 1;
    else if (byte === 0x0d && bytes[index + 1] !== 0x0a) count += 1;
  }
  return count;
}

/** A record that is nothing but an empty line: skipped, like a blank line in JSON lines. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.length === 1 && (record.fields[0] ?? '').trim() === '';
}

/**
 * The separator of a file, judged by its header line alone (the first line that is not blank, read
 * up to a line break outside quotes): the candidate found there most often, a comma on a tie or
 * when there is none. Data rows are not counted, so a comma file whose queries hold `;` stays a
 * comma file.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  let started = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      if (started) break;
    } else if (!quoted && char in counts) counts[char as CsvDelimiter] += 1;
    if (char.trim() !== '') started = true;
  }
  const [best] = (Object.keys(counts) as CsvDelimiter[]).sort((a, b) => counts[b] - counts[a]);
  return best && counts[best] > 0 ? best : ',';
}
