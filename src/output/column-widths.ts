// Fitting a table into the terminal: columns keep their natural width when the table fits; otherwise
// the widest columns shrink first, down to a common cap, until the table fits. Short columns (a phone
// number, a rating, a count) are kept whole while the wide ones can still show a useful start: a cut
// name or web address stays recognisable, a cut phone number is useless.

/** Narrowest a column gets: one character (or "…") plus its two padding spaces. */
export const MIN_COLUMN_WIDTH = 3;

/**
 * natural: each column's width including padding. available: the widths' budget (terminal width
 * minus border characters). Returns widths whose sum is at most `available` when that is possible;
 * when even MIN_COLUMN_WIDTH each is too wide, every column gets that minimum.
 */
export function fitColumnWidths(natural: readonly number[], available: number): number[] {
  return fitKeepingShortColumns(natural, available) ?? shareEvenly(natural, available);
}

/** Whether the columns fit with every short one whole and every wide one still useful. */
export function fitsComfortably(natural: readonly number[], available: number): boolean {
  return fitKeepingShortColumns(natural, available) !== undefined;
}

function fitKeepingShortColumns(natural: readonly number[], available: number): number[] | undefined {
  const total = natural.reduce((sum, width) => sum + width, 0);
  if (total <= available) return [...natural];
  const kept = natural.reduce((sum, width) => sum + (width <= SHORT_COLUMN_WIDTH ? width : 0), 0);
  const wide = natural.filter((width) => width > SHORT_COLUMN_WIDTH);
  if (wide.length === 0 || kept >= available) return undefined;
  const wideWidths = shareEvenly(wide, available - kept);
  if (Math.min(...wideWidths) < MIN_WIDE_WIDTH) return undefined;
  return natural.map((width) => (width <= SHORT_COLUMN_WIDTH ? width : (wideWidths.shift() as number)));
}

/** Columns this wide or narrower (padding included) are kept whole while the wide ones can give way. */
const SHORT_COLUMN_WIDTH = 18;
/** ...as long as each wide column keeps at least this much. */
const MIN_WIDE_WIDTH = 14;

function shareEvenly(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((sum, width) => sum + width, 0);
  if (total <= available) return [...natural];
  if (natural.length * MIN_COLUMN_WIDTH >= available) {
    return natural.map((width) => Math.min(width, MIN_COLUMN_WIDTH));
  }
  // The largest cap such that the columns capped at it fit: narrow columns stay untouched.
  let low = MIN_COLUMN_WIDTH;
  let high = Math.max(...natural);
  const cappedSum = (cap: number) => natural.reduce((sum, width) => sum + Math.min(width, cap), 0);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (cappedSum(middle) <= available) low = middle;
    else high = middle - 1;
  }
  const widths = natural.map((width) => Math.min(width, low));
  // Hand the columns left over below the next cap to the capped columns, left to right.
  let spare = available - cappedSum(low);
  for (let index = 0; index < widths.length && spare > 0; index += 1) {
    if ((natural[index] ?? 0) > low) {
      widths[index] = low + 1;
      spare -= 1;
    }
  }
  return widths;
}
