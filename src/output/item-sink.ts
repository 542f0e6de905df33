// The one place items are written: picks the format and columns, opens stdout or the -o target, and
// streams rows through the renderer. On a failure or interrupt the rows already received are still
// written and kept in the partial file, whose path is attached to the error for the CLI to print; a
// run that received no item leaves no file behind.

import { UsageError } from '../api/errors.js';
import type { CommandContext } from '../commands/context.js';
import { colorAllowed, colorForced } from '../commands/context.js';
import type { FormatName, OutputFlags } from '../commands/shared-options.js';
import type { ResourceInfo } from '../resources.js';
import { createMessages, type Messages } from '../ui/messages.js';
import { setPaging } from '../ui/paging.js';
import { assertAppendable, headerAlreadyWritten } from './append-check.js';
import { checkFieldsFlag, resolveFields } from './field-choice.js';
import { chooseOutputFormat } from './format-choice.js';
import type { RenderOptions } from './formats.js';
import { createRenderer, type Renderer } from './index.js';
import { type Pager, pagerCommand, startPager } from './pager.js';
import { notePartialFile } from './partial-note.js';
import { type OutputTarget, openOutput } from './writer.js';

type Item = Record<string, unknown>;

export interface ItemSink {
  readonly format: FormatName;
  /** Items in one write (a page at a time, rather than an await per item). */
  writeAll(items: readonly Item[]): Promise<void>;
  /**
   * Closes the output: renames an -o file into place when `ok`; else keeps the partial file when
   * rows were written (and returns its path), or removes it when none were.
   */
  close(ok: boolean): Promise<string | undefined>;
}

export interface ItemSinkOptions {
  ctx: CommandContext;
  flags: OutputFlags;
  resource: Pick<ResourceInfo, 'fields' | 'tableFields'>;
  /** The profile's `format`, if it has one. */
  storedFormat: string | undefined;
  /** --append: add rows to the -o file, its header kept (append-check.ts). */
  append?: boolean;
}

/** `-o -` is stdout, like no -o at all. */
export function writesToStdout(flags: Pick<OutputFlags, 'output'>): boolean {
  return flags.output === undefined || flags.output === '-';
}

const keepsWholeItems = (format: FormatName) =>
  format === 'json' || format === 'ndjson' || format === 'geojson';

/**
 * The format (flags, -o's extension, profile, or what stdout is) and every render option but the
 * fields, which may wait for the first page; what the user should hear about the choice is said here.
 */
function planOutput({ ctx, flags, resource, storedFormat }: ItemSinkOptions) {
  const { io } = ctx;
  checkFieldsFlag(flags.fields);
  const toTerminal = Boolean(io.stdout.isTTY) && writesToStdout(flags);
  const { format, warnings, notes } = chooseOutputFormat(flags, storedFormat, toTerminal);
  if (format === 'xlsx' && toTerminal) {
    throw new UsageError(
      'xlsx is a binary file and is not written to a terminal',
      'write it to a file with -o leads.xlsx (or pipe stdout: ... > leads.xlsx)',
    );
  }
  const messages = createMessages({
    stderr: io.stderr,
    quiet: Boolean(ctx.globals.quiet),
    color: colorAllowed(ctx),
    forceColor: colorForced(ctx),
  });
  for (const warning of warnings) messages.warn(warning);
  for (const note of notes) messages.notice(note);
  const bomApplies = format === 'csv' || format === 'tsv';
  if (flags.bom && !bomApplies)
    messages.warn(`--bom applies to csv and tsv only: ${format} is written without one`);
  const width = toTerminal ? io.stdout.columns || undefined : columnsFromEnv(io.env.COLUMNS);
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
    ...(flags.bom && bomApplies ? { bom: true } : {}),
  };
  return { format, options, messages };
}

/** Off a terminal a table has no width of its own; COLUMNS, as shells and `ls` use it, gives one. */
function columnsFromEnv(value: string | undefined): number | undefined {
  const columns = Number(value);
  return value && /^\d+$/.test(value.trim()) && columns > 0 ? columns : undefined;
}

/** The format and a renderer for output whose first page is not at hand (a batch): fields by the spec. */
export async function createItemRenderer(options: ItemSinkOptions) {
  const { format, options: base } = planOutput(options);
  const fields = resolveFields(options.flags.fields, options.resource.fields, [], keepsWholeItems(format));
  const renderer = await createRenderer({ ...base, ...(fields ? { fields } : {}) });
  return { format, renderer };
}

export async function openItemSink(options: ItemSinkOptions): Promise<ItemSink> {
  const { ctx, flags } = options;
  const { format, options: base, messages } = planOutput(options);
  if (options.append) assertAppendable(format);
  // On a terminal, the output goes through the user's pager, started with the first row (a run that
  // fails before any data starts none).
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
  // Made on the first page, which --fields is checked against (field-choice.ts); when appending to a
  // file, at once, since its header is checked against ours before any request.
  let renderer: Renderer | undefined;
  const rendererFor = async (firstPage: readonly Item[]) => {
    if (renderer) return renderer;
    const fields = resolveFields(flags.fields, options.resource.fields, firstPage, keepsWholeItems(format));
    renderer = await createRenderer({ ...base, ...(fields ? { fields } : {}) });
    return renderer;
  };
  let closed = false;
  /** The renderer whose notes are due once the output is closed. */
  let renderedBy: Renderer | undefined;
  // The opening chunk ("[", a csv header) waits for the first row or for success, so that a run that
  // fails before any data arrives writes nothing at all rather than an empty set.
  let started = false;
  if (opened?.appendingTo) {
    try {
      const opening = (await rendererFor([])).start();
      started = headerAlreadyWritten(flags.output ?? '', opened.appendingTo, opening);
    } catch (error) {
      await opened.discard();
      throw error;
    }
  }
  const start = (rendering: Renderer) => {
    if (started) return '';
    started = true;
    return rendering.start();
  };
  return {
    format,
    writeAll: async (items) => {
      if (items.length === 0) return;
      const rendering = await rendererFor(items);
      let chunk = start(rendering);
      for (const item of items) chunk += rendering.row(item);
      const target = await targetNow();
      await target.write(chunk);
      // A table lays its columns out from the first page and shows it at once; xlsx hands over the
      // bytes its zip has made of the page so far.
      await target.write((await rendering.flush?.()) ?? '');
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
      if (renderedBy) tellNotes(renderedBy, messages);
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
      await target.write(start(rendering));
      await target.write(await rendering.finish());
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

function tellNotes(renderer: Renderer, messages: Messages): void {
  for (const note of renderer.notes?.() ?? []) messages.notice(note);
}

/**
 * Runs `produce` with a sink, closing it whatever happens; the producer's error wins, carrying the
 * partial file's path when one was kept. Returns what `produce` returned, so that footers are
 * printed after the output (a table may hold rows back until close).
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
