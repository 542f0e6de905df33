// Results sized for a model's context window: docs/mcp.md, "What the model sees".
import { UsageError } from '../api/errors.js';
import { formatCount } from '../ui/ui.js';

/** About 5,000 tokens of JSON per answer: room for the model to think around it. */
const DEFAULT_MAX_RESULT_CHARS = 20_000;
const ANSWERS_KEPT = 20;

export interface Part {
  items: unknown[];
  /** Index of the first item of this part in the whole answer. */
  offset: number;
  /** Items in the whole answer. */
  total: number;
  truncated: boolean;
  nextPage?: string;
}

interface Held {
  tool: string;
  /** What the call that made the answer asked, so a token is not used with other arguments. */
  check: string;
  items: unknown[];
  extra: Record<string, unknown>;
}

export class Continuations {
  readonly maxChars: number;
  readonly #held = new Map<number, Held>();
  #nextId = 1;

  constructor(maxChars: number = DEFAULT_MAX_RESULT_CHARS) {
    this.maxChars = maxChars;
  }

  /** At least one item; the whole answer is held under a new token if there is more. */
  part(
    tool: string,
    check: string,
    items: unknown[],
    project: (item: unknown) => unknown,
    extra: Record<string, unknown> = {},
    offset = 0,
    heldId?: number,
  ): Part {
    const shown: unknown[] = [];
    let length = 2;
    for (let i = offset; i < items.length; i++) {
      const item = project(items[i]);
      const itemLength = JSON.stringify(item).length + 1;
      if (shown.length > 0 && length + itemLength > this.maxChars) break;
      shown.push(item);
      length += itemLength;
    }
    const end = offset + shown.length;
    const part = { items: shown, offset, total: items.length, truncated: end < items.length };
    if (!part.truncated) return part;
    const id = heldId ?? this.#hold({ tool, check, items, extra });
    return { ...part, nextPage: `${tool}:${id}:${end}` };
  }

  /** The next part of the answer a token continues; a UsageError in words for the model if it is unknown. */
  resume(tool: string, check: string, token: string, project: (item: unknown) => unknown) {
    const match = /^([a-z_]+):(\d+):(\d+)$/.exec(token.trim());
    const id = Number(match?.[2]);
    const offset = Number(match?.[3]);
    const held = this.#held.get(id);
    if (!match || match[1] !== tool || held === undefined || offset > held.items.length) {
      throw new UsageError(
        `next_page "${token.slice(0, 60)}" is not a continuation this session holds for ${tool}`,
        'Pass next_page exactly as an earlier answer of this tool gave it; only the last answers are kept, and none after a restart.',
      );
    }
    if (held.check !== check) {
      throw new UsageError(
        `next_page "${token.slice(0, 60)}" belongs to a call with other arguments`,
        'Call again with the same arguments as the call that returned it, plus next_page.',
      );
    }
    return { part: this.part(tool, check, held.items, project, held.extra, offset, id), extra: held.extra };
  }

  #hold(held: Held): number {
    const id = this.#nextId++;
    this.#held.set(id, held);
    for (const old of this.#held.keys()) {
      if (this.#held.size <= ANSWERS_KEPT) break;
      this.#held.delete(old);
    }
    return id;
  }
}

/** What a summary says of a cut answer or of a later part of one; nothing for a whole answer. */
export function partNote(part: Part): string {
  if (!part.truncated && part.offset === 0) return '';
  const holds = ` This answer holds ${formatCount(part.offset + 1)}–${formatCount(part.offset + part.items.length)} of ${formatCount(part.total)}`;
  return part.truncated
    ? `${holds} (cut to fit a context window): pass next_page "${part.nextPage}" with the same arguments for more, at no cost.`
    : `${holds}.`;
}

export function projectFields(fields: readonly string[] | undefined): (item: unknown) => unknown {
  if (!fields || fields.length === 0) return (item) => item;
  return (item) => {
    if (item === null || typeof item !== 'object') return item;
    const source = item as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of fields) if (field in source) out[field] = source[field];
    return out;
  };
}
