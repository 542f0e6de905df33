// Which format a run writes: a format option, else the -o file's extension, else the profile's stored
// format, else table on a terminal and json elsewhere. What a person should hear about that choice
// comes back with it: a format option the extension contradicts (a warning), or an -o name whose
// extension says no format (a note, so that `-o leads.txt` writing json is no surprise).
import { extname } from 'node:path';
import { OUTPUT_FORMATS, type OutputFormat } from './formats.js';

export const FORMAT_BY_EXTENSION: Record<string, OutputFormat> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

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
    extension === undefined
      ? []
      : [
          `Writing ${format} to ${file}: its name does not say a format (.csv, .tsv, .json, .ndjson, .jsonl); --format chooses one.`,
        ];
  return { format, warnings: [], notes };
}
