// The one place items are written: picks the format and columns, opens stdout or the -o target, and
// streams rows through the renderer. On a failure or interrupt the rows already received are still
// written and kept in the partial file, whose path is attached to the error for the CLI to print; a
// run that received no item leaves no file behind.
import type { CommandContext } from '../commands/context.js';
import { colorAllowed } from '../commands/context.js';
import { chooseFormat, type FormatName, type OutputFlags } from '../commands/shared-options.js';
import type { ResourceInfo } from '../resources.js';
import { assertAppendable, headerAlreadyWritten } from './append-check.js';
import { createRenderer } from './index.js';
import { notePartialFile } from './partial-note.js';
import { openOutput } from './writer.js';

export interface ItemSink {
  readonly format: FormatName;
  /** Items in one write (a page at a time, rather than an await per item). */
  writeAll(items: readonly Record<string, unknown>[]): Promise<void>;
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

/** The format (flags, profile, or what stdout is) and its renderer, fitted to the terminal. */
export async function createItemRenderer({ ctx, flags, resource, storedFormat }: ItemSinkOptions) {
  const { io } = ctx;
  const toTerminal = Boolean(io.stdout.isTTY) && writesToStdout(flags);
  const format = chooseFormat(flags, storedFormat, toTerminal);
  const renderer = await createRenderer({
    format,
    ...(flags.fields ? { fields: flags.fields } : {}),
    defaultFields: resource.fields,
    tableFields: resource.tableFields,
    header: flags.header,
    sanitize: flags.sanitize,
    color: colorAllowed(ctx) && toTerminal,
    ...(toTerminal && io.stdout.columns ? { width: io.stdout.columns } : {}),
  });
  return { format, renderer };
}

export async function openItemSink(options: ItemSinkOptions): Promise<ItemSink> {
  const { ctx, flags } = options;
  const { format, renderer } = await createItemRenderer(options);
  if (options.append) assertAppendable(format);
  const target = await openOutput({
    ...(writesToStdout(flags) ? {} : { file: flags.output }),
    stdout: ctx.io.stdout,
    ...(options.append ? { append: true } : {}),
  });
  let closed = false;
  // The opening chunk ("[", a csv header) waits for the first row or for success, so that a run that
  // fails before any data arrives writes nothing at all rather than an empty set.
  let started = false;
  if (target.appendingTo) {
    try {
      started = headerAlreadyWritten(flags.output ?? '', target.appendingTo, renderer.start());
    } catch (error) {
      await target.discard();
      throw error;
    }
  }
  const start = () => {
    if (started) return '';
    started = true;
    return renderer.start();
  };
  return {
    format,
    writeAll: (items) => {
      if (items.length === 0) return Promise.resolve();
      let chunk = start();
      for (const item of items) chunk += renderer.row(item);
      return target.write(chunk);
    },
    close: async (ok) => {
      if (closed) return undefined;
      closed = true;
      if (!ok && !started) {
        await target.discard();
        return undefined;
      }
      try {
        // After a failure or Ctrl-C too, the rows received are complete and stay usable (valid json,
        // a table a person can read); the exit code and the partial file's name say the set is not.
        await target.write(start() + renderer.finish());
        if (ok) await target.commit();
      } catch (error) {
        await target.abandon();
        if (target.partialPath !== undefined) notePartialFile(error, target.partialPath);
        throw error;
      }
      if (ok) return undefined;
      await target.abandon();
      return target.partialPath;
    },
  };
}

/**
 * Runs `produce` with a sink, closing it whatever happens; the producer's error wins, carrying the
 * partial file's path when one was kept. Returns what `produce` returned, so that footers are
 * printed after the output (a table renders only at close).
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
