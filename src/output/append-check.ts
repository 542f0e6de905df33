// --append's rules: only line formats (csv, tsv, ndjson) can grow by adding lines; a file that already
// holds rows must have been written with the same columns, or the new rows would sit under the wrong
// header; and it must end with a line break, or the first new row would join a cut-off last line.
import { UsageError } from '../api/errors.js';
import type { OutputFormat } from './formats.js';

const APPENDABLE: readonly OutputFormat[] = ['csv', 'tsv', 'ndjson'];

export function assertAppendable(format: OutputFormat): void {
  if (!APPENDABLE.includes(format)) {
    throw new UsageError(
      `--append works with csv, tsv and ndjson, not ${format}`,
      'add --csv, or -f tsv|ndjson',
    );
  }
}

/**
 * Whether the file already begins with `opening` (the header line this run would write), so it must
 * not be written again. An empty file gets it; a file that begins otherwise is refused.
 */
export function headerAlreadyWritten(
  file: string,
  existing: { size: number; head: string; endsWithNewline: boolean },
  opening: string,
): boolean {
  if (existing.size === 0) return false;
  if (!existing.endsWithNewline) {
    throw new UsageError(
      `cannot append to ${file}: its last line is not complete (no line break at the end)`,
    );
  }
  if (opening === '' || existing.head.startsWith(opening)) return true;
  const firstLine = existing.head.split(/\r?\n/, 1)[0] ?? '';
  throw new UsageError(
    `cannot append to ${file}: its header (${firstLine.slice(0, 200)}) differs from the columns this run writes (${opening.trimEnd()})`,
    'use the --fields (and --no-header) the file was written with, or write to a new file',
  );
}
