// The one place items are written: picks the format and columns, opens stdout or the -o file, and
// streams rows through the renderer. On any failure or interrupt the rows already received are
// still written, and an -o file stays <file>.partial.
import { createRenderer } from '../output/index.js';
import { openOutput } from '../output/writer.js';
import type { ResourceInfo } from '../resources.js';
import { type CommandContext, colorAllowed } from './context.js';
import { chooseFormat, type FormatName, type OutputFlags } from './shared-options.js';

export interface ItemSink {
  readonly format: FormatName;
  /** Items in one write (a page at a time, rather than an await per item). */
  writeAll(items: readonly Record<string, unknown>[]): Promise<void>;
  /** Closes the output: renames an -o file into place when `ok`, else leaves it as .partial. */
  close(ok: boolean): Promise<void>;
}

export interface ItemSinkOptions {
  ctx: CommandContext;
  flags: OutputFlags;
  resource: Pick<ResourceInfo, 'fields' | 'tableFields'>;
  /** The profile's `format`, if it has one. */
  storedFormat: string | undefined;
}

/** The format (flags, profile, or what stdout is) and its renderer, fitted to the terminal. */
export async function createItemRenderer({ ctx, flags, resource, storedFormat }: ItemSinkOptions) {
  const { io } = ctx;
  const toTerminal = Boolean(io.stdout.isTTY) && !flags.output;
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
  const target = await openOutput({ ...(flags.output ? { file: flags.output } : {}), stdout: ctx.io.stdout });
  let closed = false;
  // The opening chunk ("[", a csv header) waits for the first row or for success, so that a run that
  // fails before any data arrives writes nothing at all rather than an empty set.
  let started = false;
  const start = () => {
    if (started) return '';
    started = true;
    return renderer.start();
  };
  return {
    format,
    writeAll: (items) => {
      let chunk = start();
      for (const item of items) chunk += renderer.row(item);
      return target.write(chunk);
    },
    close: async (ok) => {
      if (closed) return;
      closed = true;
      try {
        // After a failure or Ctrl-C too, the rows received are complete and stay usable (valid json,
        // a table a person can read); the exit code and an -o file's .partial name say the set is not.
        if (ok || started) await target.write(start() + renderer.finish());
      } catch (error) {
        await target.abandon();
        throw error;
      }
      await (ok ? target.commit() : target.abandon());
    },
  };
}

/**
 * Runs `produce` with a sink, closing it whatever happens; the producer's error wins. Returns what
 * `produce` returned, so that footers are printed after the output (a table renders only at close).
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
    await sink.close(false).catch(() => {});
    throw error;
  }
  await sink.close(true);
  return result;
}
