// Which format a run writes: a format option, else the -o file's extension, else the profile's stored
// format, else table on a terminal and json elsewhere. What a person should hear about that choice
// comes back with it: a format option the extension contradicts (a warning), or an -o name whose
// extension says no format (a note, so that `-o leads.txt` writing json is no surprise).
import { basename, extname } from 'node:path';
import { UsageError } from '../api/errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from './formats.js';

/** The one list of extensions leadctl writes: a new format adds its extension here. */
export const FORMAT_BY_EXTENSION: Record<string, OutputFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  '.geojson': 'geojson',
};

/**
 * Extensions of formats leadctl does not write: a file under such a name would hold another format
 * (`-o leads.xlsx` that Excel cannot open). An extension that says no format (`.txt`, `.out`) is fine.
 */
const OTHER_FORMAT_EXTENSIONS = new Set(
  ['.xlsx', '.xls', '.xlsm', '.ods', '.geojson', '.xml', '.html', '.htm', '.yaml', '.yml', '.parquet']
    .concat(['.pdf', '.sqlite', '.db', '.gz', '.zip', '.md'])
    .filter((extension) => !(extension in FORMAT_BY_EXTENSION)),
);

const writableList = () => Object.keys(FORMAT_BY_EXTENSION).join(', ');

/** `-o json` (a format where a file belongs) and `-o leads.xlsx` (a format leadctl does not write). */
function refuseOutputName(file: string, extension: string | undefined): void {
  const name = basename(file).toLowerCase();
  if (file === name && (OUTPUT_FORMATS as readonly string[]).includes(name)) {
    throw new UsageError(
      `-o takes a file name, and "${file}" is a format: did you mean \`-f ${name}\`?`,
      `to write a file named ${file}, say -o ./${file}`,
    );
  }
  if (extension !== undefined && OTHER_FORMAT_EXTENSIONS.has(extension)) {
    throw new UsageError(
      `cannot write ${file}: leadctl does not write ${extension} files, and another format under that name would mislead`,
      `it writes ${writableList()}; for Excel: -o ${file.slice(0, -extension.length)}.xlsx`,
    );
  }
}

export interface FormatFlags {
  format?: OutputFormat;
  json?: boolean;
  csv?: boolean;
  output?: string;
}

export interface FormatChoice {
  format: OutputFormat;
  warnings: string[];
  notes: string[];
}

/** Paths the shell or the system hands over (/dev/stdout, /proc/self/fd/3): their names say nothing. */
const SYSTEM_PATH = /^\/(dev|proc)\//;

export function chooseOutputFormat(
  flags: FormatFlags,
  stored: string | undefined,
  stdoutIsTty: boolean,
): FormatChoice {
  const asked = flags.format ?? (flags.json ? 'json' : flags.csv ? 'csv' : undefined);
  const file = flags.output === undefined || flags.output === '-' ? undefined : flags.output;
  const extension = file === undefined || SYSTEM_PATH.test(file) ? undefined : extname(file).toLowerCase();
  if (file !== undefined) refuseOutputName(file, extension);
  const fromName = extension === undefined ? undefined : FORMAT_BY_EXTENSION[extension];
  if (asked) {
    const warnings =
      fromName && fromName !== asked ? [`writing ${asked} to ${file}, whose extension says ${fromName}`] : [];
    return { format: asked, warnings, notes: [] };
  }
  if (fromName) return { format: fromName, warnings: [], notes: [] };
  const format =
    stored && (OUTPUT_FORMATS as readonly string[]).includes(stored)
      ? (stored as OutputFormat)
      : stdoutIsTty
        ? 'table'
        : 'json';
  const notes =
    extension === undefined ? [] : [`Writing ${format} to ${file}: its name says no format (-f picks one).`];
  return { format, warnings: [], notes };
}
