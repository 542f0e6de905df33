// cli.md's "Output" and "Paging" option groups, defined once, and the argument parsers that refuse a value
// before any request (InvalidArgumentError: exit 2). The parsed types are inferred from these.
import { type Command, InvalidArgumentError, Option, type OptionValues } from '@commander-js/extra-typings';
import { splitFieldList } from '../output/fields.js';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { parseWhere, type WhereCondition } from '../output/where.js';

/** -f/--json/--csv, --fields, --no-header, --bom, --no-sanitize, -o, --append: how items are written. */
export function addOutputOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(command: Command<Args, Opts, Globals>) {
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
      'columns / keys to show, in this order; name:Company renames a column (headers, json keys; "..." quotes a name holding , or :); all: every field the server sends; domain: the registrable domain of website',
      splitFieldList,
    )
    .option(
      '--where <cond>',
      'keep only items where FIELD OP VALUE holds (OP: = != < <= > >= ~ contains); FIELD: present, !FIELD: missing or empty; repeatable, all must hold',
      collectWhere,
    )
    .option('--no-header', 'csv, tsv and table without the header row')
    .option(
      '--bom',
      'csv, tsv: start with a UTF-8 byte-order mark (for Excel; store it: config set bom true)',
    )
    .option('--no-bom', "csv, tsv: no byte-order mark, though the profile's bom is true")
    .option('--no-sanitize', "csv, tsv: don't neutralize cells a spreadsheet would run as formulas")
    .option(
      '-o, --output <file>',
      'write to <file> (- is stdout); with no format option its extension picks one (.csv .tsv .json .ndjson .jsonl)',
    )
    .option('--append', 'csv, tsv, ndjson: add rows to the -o file (header only when new)');
}

/** --page, --limit, -a/--all, --max-items, --since, --concurrency: which pages of a list. */
export function addPagingOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(command: Command<Args, Opts, Globals>) {
  return command
    .option('--page <n>', 'page number, 1 or more (default: 1)', integerIn(1, 1_000_000_000))
    .option('--limit <n>', 'page size, 1..100 (default: 25; 100 with --all)', integerIn(1, 100))
    .option('-a, --all', 'every page, streamed in order')
    .option('--max-items <n>', 'stop after n items (pages as needed)', integerIn(1, Number.MAX_SAFE_INTEGER))
    .option('--since <when>', 'only items newer than an ISO date/time or a span like 24h, 7d')
    .option('--concurrency <n>', 'pages in flight with --all, 1..16 (default: 4)', integerIn(1, 16));
}

/** No options yet: the start of a chain whose options are inferred. */
export type NoOptions = Record<never, never>;

/** The parsed options of the command a definition function returns: `OptionsOf<typeof searchOptions>`. */
export type OptionsOf<Define extends (...args: never[]) => { opts(): OptionValues }> = ReturnType<
  ReturnType<Define>['opts']
>;

/** The output options as parsed: what output/ reads to pick a format and open the target. */
export type OutputFlags = OptionsOf<typeof addOutputOptions<[], NoOptions, NoOptions>>;

export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      // No one types 9007199254740991: an open range says only its floor.
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}.`);
    }
    return n;
  };
}

/** Each --where is checked as it is read: a bad one is a usage error before anything is sent. */
function collectWhere(text: string, previous: WhereCondition[] | undefined): WhereCondition[] {
  return [...(previous ?? []), parseWhere(text)];
}

/** A value that must not be empty or blank: `--location ""` is refused before any request. */
export function nonBlank(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new InvalidArgumentError('must not be empty.');
  return trimmed;
}

/** A probability from 0 to 1: `--fail-rate 0.25`. */
export function probability(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1.');
  }
  return n;
}

const SIZE_BYTES: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

/** A size in bytes, or with K, M or G (1,024-based; KiB, MB and the like read the same): `200M`. */
export function byteSize(value: string): number {
  const match = /^\s*(\d{1,12})\s*(?:([kmg])i?b?)?\s*$/i.exec(value);
  const bytes = match ? Number(match[1]) * (SIZE_BYTES[(match[2] ?? '').toLowerCase()] ?? 0) : 0;
  if (!(bytes > 0)) throw new InvalidArgumentError('expected a size such as 200M, 1G or 500000 (bytes).');
  return bytes;
}

const SPAN_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A span of time, `90s`, `30m`, `24h`, `7d`, `2w`, in milliseconds: `--cache 1h`. */
export function timeSpan(value: string): number {
  const match = /^\s*(\d{1,9})\s*([smhdw])\s*$/i.exec(value);
  const ms = match ? Number(match[1]) * (SPAN_MS[(match[2] ?? '').toLowerCase()] ?? 0) : 0;
  if (!(ms > 0)) throw new InvalidArgumentError('expected a span of time such as 90s, 30m, 24h, 7d or 2w.');
  return ms;
}
