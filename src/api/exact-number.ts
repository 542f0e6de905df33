// A JSON number kept as the digits the server sent, where a JavaScript number would change them
// (an id beyond 2^53, `4.50`, `1e3`). Renderers write `digits` exactly; the paging compares ids by text.

export class ExactNumber {
  constructor(readonly digits: string) {}

  toString(): string {
    return this.digits;
  }
}

/** An item's identity as text, or undefined when it has none: ids come as strings or JSON numbers. */
export function identityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (value instanceof ExactNumber) return value.digits;
  return undefined;
}
