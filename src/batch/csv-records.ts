// RFC 4180 records with the line each one starts on, so that validation can point at "line 7".
// Liberal in what it reads: CRLF or LF, a leading byte-order mark, quoted fields spanning lines.

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
}

export interface CsvParse {
  records: CsvRecord[];
  /** A quote that never closes swallows the rest of the file: reported, not guessed around. */
  unterminatedQuoteLine?: number;
}

export function parseCsvRecords(text: string): CsvParse {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let inQuotes = false;
  let quoteLine = 0;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };

  for (; index < text.length; index += 1) {
    const char = text[index];
    if (inQuotes) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 1;
        } else {
          inQuotes = false;
        }
      } else {
        if (char === '\n') line += 1;
        field += char;
      }
      continue;
    }
    if (char === '"' && field.length === 0) {
      inQuotes = true;
      quoteLine = line;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (inQuotes) return { records, unterminatedQuoteLine: quoteLine };
  // The last record needs no line break after it.
  if (field.length > 0 || fields.length > 0) endRecord();
  return { records };
}

/** A record that is nothing but an empty line: skipped, like a blank line in JSON lines. */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.length === 1 && (record.fields[0] ?? '').trim() === '';
}
