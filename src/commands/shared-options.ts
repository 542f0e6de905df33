// The option groups that several commands share (cli.md's "Output" and "Paging" tables), defined
// once so that leads, history and search spell them the same way.
import { type Command, Option } from 'commander';
import { chooseOutputFormat } from '../output/format-choice.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/formats.js';
import { fieldList, integerAtLeast, integerIn } from './parsers.js';

export type FormatName = OutputFormat;

export interface OutputFlags {
  format?: FormatName;
  json?: boolean;
  csv?: boolean;
  fields?: string[];
  header: boolean;
  sanitize: boolean;
  output?: string;
  bom?: boolean;
}

export interface PagingFlags {
  page?: number;
  limit?: number;
  all?: boolean;
  maxItems?: number;
  since?: string;
  concurrency?: number;
}

export function addOutputOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '-f, --format <format>',
        'output format (default: table on a terminal, json otherwise)',
      ).choices(OUTPUT_FORMATS),
    )
    .addOption(new Option('--json', 'shorthand for --format json').conflicts(['format', 'csv']))
    .addOption(new Option('--csv', 'shorthand for --format csv').conflicts(['format']))
    .option(
      '--fields <a,b,c>',
      'columns / keys to show, in this order; all: every field the server sends',
      fieldList,
    )
    .option('--no-header', 'csv, tsv and table without the header row')
    .option('--bom', 'csv, tsv: start with a UTF-8 byte-order mark (for Excel)')
    .option('--no-sanitize', "csv, tsv: don't neutralize cells a spreadsheet would run as formulas")
    .option(
      '-o, --output <file>',
      'write to <file> (- is stdout); with no format option its extension picks one (.csv .tsv .json .ndjson .jsonl .xlsx .geojson)',
    );
}

export function addPagingOptions(command: Command): Command {
  return command
    .option('--page <n>', 'page number, 1 or more (default: 1)', integerIn(1, 1_000_000_000))
    .option('--limit <n>', 'page size, 1..100 (default: 25; 100 with --all)', integerIn(1, 100))
    .option('-a, --all', 'every page, streamed in order')
    .option('--max-items <n>', 'stop after n items (pages as needed)', integerAtLeast(1))
    .option('--since <when>', 'only items newer than an ISO date/time or a span like 24h, 7d')
    .option('--concurrency <n>', 'pages in flight with --all, 1..16 (default: 4)', integerIn(1, 16));
}

/** --format, else --json/--csv, else -o's extension, else the profile's format, else table on a terminal, json off one. */
export function chooseFormat(
  flags: OutputFlags,
  stored: string | undefined,
  stdoutIsTty: boolean,
): FormatName {
  return chooseOutputFormat(flags, stored, stdoutIsTty).format;
}
