// The one place items are written: picks the format and columns, opens stdout or the -o target, and
// streams rows through the renderer (on a failure: docs/output.md, "When a run fails").
import { UsageError } from '../api/errors.js';
import { asSent } from '../api/exact-number.js';
import { NUMBER_FIELDS, type ResourceInfo } from '../resources.js';
import { notePartialFile } from '../ui/error-lines.js';
import { colorAllowed, colorForced, setPaging, type Ui } from '../ui/ui.js';

/** The one stderr channel of a run: the session's ui. */
type Notices = Pick<Ui, 'notice' | 'warn'>;

import { createCsvRenderer, createTsvRenderer } from './csv.js';
import { type AppendingTo, type OutputTarget, openOutput } from './destination.js';
import {
  checkFieldsFlag,
  columnNames,
  fieldLabels,
  fieldValue,
  isNumberValue,
  knownFields,
  loadDerivedField,
  resolveFields,
} from './fields.js';
import {
  type Chunk,
  chooseOutputFormat,
  chunkText,
  type FormatFlags,
  joinChunks,
  type OutputFormat,
  type Renderer,
  type RenderOptions,
} from './formats.js';
import { createGeojsonRenderer } from './geojson.js';
import { createJsonRenderer, createNdjsonRenderer } from './json.js';
import { type Pager, pagerCommand, startPager } from './pager.js';
import { checkWhereFields, createWhereFilter, type WhereCondition } from './where.js';

type Item = Record<string, unknown>;

/** The output options of docs/output.md's "Options" table, as every command that writes items has them. */
export interface OutputFlags extends FormatFlags {
  fields?: string[];
  /** --where, each parsed before any request (where.ts); all must hold. */
  where?: WhereCondition[];
  header: boolean;
  sanitize: boolean;
  /** --bom true, --no-bom false, neither: undefined (the profile's `bom` decides). */
  bom?: boolean;
}

/** What the output layer reads of a command's context (a CommandContext is one). */
export interface OutputContext {
  io: {
    stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
    env: NodeJS.ProcessEnv;
  };
  globals: { color?: boolean; pager?: boolean };
}

export interface ItemSink {
  readonly format: OutputFormat;
  /** Items that meet --where, at most `atMost`, in one write (a page, not an await per item); how many. */
  writeAll(items: readonly Item[], atMost?: number): Promise<number>;
  /** Items --where has left out so far (0 without --where). */
  readonly filteredOut: number;
  /** Renames an -o file into place when `ok`; else keeps the partial file (its path) if it has rows. */
  close(ok: boolean): Promise<string | undefined>;
}

export interface ItemSinkOptions {
  ctx: OutputContext;
  /** Where warnings and notes about the output go: the command's ui. */
  messages: Notices;
  flags: OutputFlags;
  resource: Pick<ResourceInfo, 'fields' | 'tableFields'>;
  /** The profile's `format`, if it has one. */
  storedFormat: string | undefined;
  /** The profile's `bom`, used when neither --bom nor --no-bom is given. */
  storedBom?: boolean | undefined;
  /** --append: add rows to the -o file, its header kept. */
  append?: boolean;
}

/** `-o -` is stdout, like no -o at all. */
export function writesToStdout(flags: Pick<OutputFlags, 'output'>): boolean {
  return flags.output === undefined || flags.output === '-';
}

const keepsWholeItems = (format: OutputFormat) =>
  format === 'json' || format === 'ndjson' || format === 'geojson';

/** The format and every render option but the fields, which may wait for the first page. */
async function planOutput({ ctx, messages, flags, resource, storedFormat, storedBom }: ItemSinkOptions) {
  const { io } = ctx;
  checkFieldsFlag(flags.fields);
  // Before any request: the spec's number fields against a VALUE that is no number.
  checkWhereFields(flags.where ?? [], undefined, numberField([]));
  await loadDerivedField([
    ...(flags.fields ? columnNames(flags.fields).names : []),
    ...(flags.where ?? []).map((condition) => condition.field),
  ]);
  const toTerminal = Boolean(io.stdout.isTTY) && writesToStdout(flags);
  const { format, warnings, notes } = chooseOutputFormat(flags, storedFormat, toTerminal);
  if (format === 'xlsx' && toTerminal) {
    throw new UsageError(
      'xlsx is a binary file and is not written to a terminal',
      'write it to a file with -o leads.xlsx (or pipe stdout: ... > leads.xlsx)',
    );
  }
  for (const warning of warnings) messages.warn(warning);
  for (const note of notes) messages.notice(note);
  const bomApplies = format === 'csv' || format === 'tsv';
  if (flags.bom && !bomApplies)
    messages.warn(`--bom applies to csv and tsv only: ${format} is written without one`);
  const width = toTerminal ? io.stdout.columns || undefined : columnsFromEnv(io.env.COLUMNS);
  const labels = fieldLabels(flags.fields);
  const options: RenderOptions = {
    format,
    defaultFields: resource.fields,
    tableFields: resource.tableFields,
    header: flags.header,
    sanitize: flags.sanitize,
    // FORCE_COLOR colours stdout piped (`| less -R`), never a file written with -o.
    color: colorAllowed(ctx) && (toTerminal || (colorForced(ctx) && writesToStdout(flags))),
    ...(width ? { width } : {}),
    ...(format === 'json' && toTerminal ? { pretty: true } : {}),
    ...(toTerminal ? { terminal: true } : {}),
    ...((flags.bom ?? storedBom) && bomApplies ? { bom: true } : {}),
    ...(labels ? { labels } : {}),
  };
  return { format, options };
}

/** A number field for --where: the spec's, or one that holds a number on the first page (a server's extra). */
const numberField = (firstPage: readonly Item[]) => (field: string) =>
  NUMBER_FIELDS.has(field) || firstPage.some((item) => isNumberValue(fieldValue(asSent(item), field)));

/** Off a terminal a table has no width of its own; COLUMNS, as shells and `ls` use it, gives one. */
function columnsFromEnv(value: string | undefined): number | undefined {
  const columns = Number(value);
  return value && /^\d+$/.test(value.trim()) && columns > 0 ? columns : undefined;
}

/** The format and a renderer for output whose first page is not at hand (a batch): fields by the spec. */
export async function createItemRenderer(options: ItemSinkOptions) {
  const { format, options: base } = await planOutput(options);
  const fields = resolveFields(options.flags.fields, options.resource.fields, [], keepsWholeItems(format));
  // No page to look at before the first search: --where names the spec's fields.
  checkWhereFields(options.flags.where ?? [], knownFields(options.resource.fields, []), numberField([]));
  const renderer = await createRenderer({ ...base, ...(fields ? { fields } : {}) });
  return { format, renderer, where: createWhereFilter(options.flags.where ?? []) };
}

export async function openItemSink(options: ItemSinkOptions): Promise<ItemSink> {
  const { ctx, flags, messages } = options;
  const { format, options: base } = await planOutput(options);
  if (options.append) assertAppendable(format);
  // On a terminal, the output goes through the user's pager, started with the first row.
  const toTerminal = Boolean(ctx.io.stdout.isTTY) && writesToStdout(flags);
  // A terminal that reports no height (a pty without a size) gets none: a pager could not tell a page.
  const pages = toTerminal && (ctx.io.stdout.rows ?? 0) > 0;
  const pagerToStart = pages ? pagerCommand(ctx.io.env, ctx.globals.pager) : undefined;
  let pager: Pager | undefined;
  const open = (stdout: NodeJS.WritableStream) =>
    openOutput({
      ...(writesToStdout(flags) ? {} : { file: flags.output }),
      stdout,
      ...(options.append ? { append: true } : {}),
    });
  let opened: OutputTarget | undefined = pagerToStart === undefined ? await open(ctx.io.stdout) : undefined;
  const targetNow = async (): Promise<OutputTarget> => {
    if (opened) return opened;
    pager = await startPager(pagerToStart as string, ctx.io.env);
    if (pager) setPaging(true);
    else messages.warn(`pager not found: ${pagerToStart} (set PAGER or LEADCTL_PAGER, or use --no-pager)`);
    opened = await open(pager?.input ?? ctx.io.stdout);
    return opened;
  };
  const endPager = async () => {
    if (!pager) return;
    const started = pager;
    pager = undefined;
    await started.finish();
    setPaging(false);
  };
  // Made on the first page, which --fields is checked against (fields.ts); when appending to a
  // file, at once, since its header is checked against ours before any request.
  let renderer: Renderer | undefined;
  const rendererFor = async (firstPage: readonly Item[]) => {
    if (renderer) return renderer;
    const fields = resolveFields(flags.fields, options.resource.fields, firstPage, keepsWholeItems(format));
    renderer = await createRenderer({ ...base, ...(fields ? { fields } : {}) });
    return renderer;
  };
  const where = createWhereFilter(flags.where ?? []);
  let whereChecked = false;
  const checkWhere = (firstPage: readonly Item[]) => {
    if (whereChecked || firstPage.length === 0) return;
    whereChecked = true;
    checkWhereFields(
      where.conditions,
      knownFields(options.resource.fields, firstPage),
      numberField(firstPage),
    );
  };
  let closed = false;
  /** The renderer whose notes are due once the output is closed. */
  let renderedBy: Renderer | undefined;
  // The opening chunk ("[", a csv header) waits for the first row or for success, so that a run that
  // fails before any data arrives writes nothing at all rather than an empty set.
  let started = false;
  if (opened?.appendingTo) {
    try {
      const opening = chunkText((await rendererFor([])).start());
      started = headerAlreadyWritten(flags.output ?? '', opened.appendingTo, opening);
    } catch (error) {
      await opened.discard();
      throw error;
    }
  }
  const start = (rendering: Renderer): Chunk => {
    if (started) return '';
    started = true;
    return rendering.start();
  };
  return {
    format,
    get filteredOut() {
      return where.filteredOut;
    },
    writeAll: async (items, atMost = Number.POSITIVE_INFINITY) => {
      if (items.length === 0) return 0;
      checkWhere(items);
      const rendering = await rendererFor(items);
      const kept = where.keep(items).slice(0, Math.max(0, atMost));
      if (kept.length === 0) return 0;
      const chunks = [start(rendering)];
      for (const item of kept) chunks.push(rendering.row(item));
      // A table lays its columns out from the first page and shows it at once; xlsx hands over the
      // bytes its zip has made of the page so far.
      chunks.push((await rendering.flush?.()) ?? '');
      await (await targetNow()).write(joinChunks(chunks));
      return kept.length;
    },
    close: async (ok) => {
      if (closed) return undefined;
      closed = true;
      let partial: string | undefined;
      try {
        partial = await closeTarget(ok);
      } finally {
        // The person reads the page to the end and quits the pager; leadctl goes on after that.
        await endPager();
      }
      // After the pager, so that they are not drawn over its page.
      for (const note of renderedBy?.notes?.() ?? []) messages.notice(note);
      return partial;
    },
  };

  async function closeTarget(ok: boolean): Promise<string | undefined> {
    if (!ok && !started) {
      await opened?.discard();
      return undefined;
    }
    const target = await targetNow();
    const rendering = await rendererFor([]);
    try {
      // After a failure or Ctrl-C too, the rows received are complete and stay usable (valid json,
      // a table a person can read); the exit code and the partial file's name say the set is not.
      await target.write(joinChunks([start(rendering), await rendering.finish()]));
      if (ok) await target.commit();
    } catch (error) {
      await target.abandon();
      if (target.partialPath !== undefined) notePartialFile(error, target.partialPath);
      throw error;
    }
    renderedBy = rendering;
    if (ok) return undefined;
    await target.abandon();
    return target.partialPath;
  }
}

/**
 * Runs `produce` with a sink, closed whatever happens; the producer's error wins, carrying the partial
 * file's path. Returns what `produce` returned, so footers print after the output.
 */
export async function withItemSink<T>(
  options: ItemSinkOptions,
  produce: (sink: ItemSink) => Promise<T>,
): Promise<T> {
  const sink = await openItemSink(options);
  let result: T;
  try {
    result = await produce(sink);
  } catch (error) {
    const partial = await sink.close(false).catch(() => undefined);
    if (partial !== undefined) notePartialFile(error, partial);
    throw error;
  }
  await sink.close(true);
  return result;
}

/**
 * A renderer for a format, writing items as the server sent them (asSent: exact digits, key order), not
 * as the client types them for library users. table.ts and xlsx.ts load only when the format is theirs.
 */
export async function createRenderer(options: RenderOptions): Promise<Renderer> {
  const renderer = await createFormatRenderer(options);
  const row = renderer.row.bind(renderer);
  renderer.row = (item) => row(asSent(item));
  return renderer;
}

async function createFormatRenderer(options: RenderOptions): Promise<Renderer> {
  switch (options.format) {
    case 'json':
      return createJsonRenderer(options);
    case 'ndjson':
      return createNdjsonRenderer(options);
    case 'csv':
      return createCsvRenderer(options);
    case 'tsv':
      return createTsvRenderer(options);
    case 'geojson':
      return createGeojsonRenderer(options);
    case 'xlsx': {
      // exceljs is large: only a run that writes xlsx loads it (a chunk of its own).
      const { createXlsxRenderer } = await import('./xlsx.js');
      return createXlsxRenderer(options);
    }
    case 'table': {
      const { createTableRenderer } = await import('./table.js');
      return createTableRenderer(options);
    }
  }
}

const APPENDABLE: readonly OutputFormat[] = ['csv', 'tsv', 'ndjson'];

/** Only line formats can grow by adding lines. */
export function assertAppendable(format: OutputFormat): void {
  if (!APPENDABLE.includes(format)) {
    throw new UsageError(
      `--append works with csv, tsv and ndjson, not ${format}`,
      'add --csv, or -f tsv|ndjson',
    );
  }
}

/**
 * Whether the file already begins with `opening` (this run's header line). A file that begins otherwise
 * is refused (wrong header), and so is one whose last line is cut off (the first new row would join it).
 */
export function headerAlreadyWritten(file: string, existing: AppendingTo, opening: string): boolean {
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
