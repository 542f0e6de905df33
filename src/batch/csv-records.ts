// RFC 4180 records with the line each one starts on ("line 7"), parsed by csv-parse as the text comes,
// liberal in what it reads. Its own line count adds a quoted CRLF up as two lines, so lines are counted
// here from each record's raw text.
import { CsvError, type Options, parse } from 'csv-parse';

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
  /** Set on the last record of an input that cannot be read further: why (no fields then). */
  problem?: string;
}

/** The field separators a spreadsheet writes: comma, semicolon (European Excel), tab ("Unicode text"). */
export type CsvDelimiter = ',' | ';' | '\t';

/** A record longer than this is no search: refused, so that one endless line cannot grow without bound. */
export const MAX_RECORD_CHARS = 2 ** 20;

/** The records of a text read in chunks: those each chunk completes, as one batch. */
export async function* csvRecords(
  texts: AsyncIterable<string>,
  delimiter: CsvDelimiter,
): AsyncGenerator<CsvRecord[]> {
  const records: CsvRecord[] = [];
  const collector = collect(records);
  // Records are taken as the parser finds them (never queued in the stream, where a later error would drop them).
  const parser = parse({
    bom: true,
    delimiter,
    raw: true,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_CHARS,
    on_record: collector.onRecord,
  });
  parser.on('error', () => {});
  const step = (write: (done: (error?: Error | null) => void) => void) =>
    new Promise<Error | null | undefined>((resolve) => write(resolve));
  let failure: Error | null | undefined;
  for await (const text of texts) {
    failure = await step((done) => parser.write(text, done));
    yield records.splice(0);
    if (failure) break;
  }
  failure ??= await step((done) => parser.end(done));
  if (failure && !(failure instanceof CsvError)) throw failure;
  const problem =
    failure?.code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'a quoted field is never closed (missing ")'
      : failure?.code === 'CSV_MAX_RECORD_SIZE'
        ? 'a row longer than 1 MiB (a quoted field that is never closed?)'
        : failure?.message;
  yield [...records.splice(0), ...(problem ? [{ line: collector.line(), fields: [], problem }] : [])];
}

/** An on_record handler that keeps each record with the line it starts on; line() is the next one's. */
function collect(records: CsvRecord[]) {
  let line = 1;
  const onRecord = (entry: { record: string[]; raw: string }) => {
    records.push({ line, fields: entry.record });
    line += lineBreaks(entry.raw);
    return null;
  };
  return { onRecord: onRecord as unknown as Options['on_record'], line: () => line };
}

/** A raw record ends with the first character of its delimiter (a CRLF's LF is not in it). */
function lineBreaks(raw: string): number {
  let count = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index];
    if (char === '\n' || (char === '\r' && raw[index + 1] !== '\n')) count += 1;
  }
  return count;
}

/** A record that is nothing but an empty line: skipped, like a blank line in JSON lines. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.length === 1 && (record.fields[0] ?? '').trim() === '';
}

/**
 * The separator found most often in the header line alone (a comma on a tie or when none is), so a comma
 * file whose queries hold `;` stays a comma file. `complete`: the header line ended within `text`.
 */
export function detectDelimiter(text: string): { delimiter: CsvDelimiter; complete: boolean } {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  let started = false;
  let complete = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      if (started) {
        complete = true;
        break;
      }
    } else if (!quoted && char in counts) counts[char as CsvDelimiter] += 1;
    if (char.trim() !== '') started = true;
  }
  const [best] = (Object.keys(counts) as CsvDelimiter[]).sort((a, b) => counts[b] - counts[a]);
  return { delimiter: best && counts[best] > 0 ? best : ',', complete };
}
