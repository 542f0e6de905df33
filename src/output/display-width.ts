// Terminal columns a (sanitized) string takes, and truncation to a width with "…".
//
// The table (table.ts) pads and cuts its cells with this measure, grapheme by grapheme, so that an
// emoji is never split into a lone surrogate. It follows string-width 4's rules (emoji sequences 2,
// East Asian wide 2, combining marks 0), as terminals do. Zero-width characters count 0; in a table
// the sanitizer shows them as visible escapes anyway.

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const EMOJI_GRAPHEME = /\p{Extended_Pictographic}/u;
const EMOJI_STYLE = /\p{Emoji_Presentation}|\uFE0F|\u200D|\p{Emoji_Modifier}/u;
/** Invisible format characters (zero-width space and joiners, bidi controls, BOM): no column at all. */
const ZERO_WIDTH = /\p{Cf}/u;

/** East Asian Wide and Fullwidth ranges, as is-fullwidth-code-point 3 (string-width 4) counts them. */
function isWideCodePoint(code: number): boolean {
  return (
    code >= 0x1100 &&
    (code <= 0x115f ||
      code === 0x2329 ||
      code === 0x232a ||
      (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) ||
      (code >= 0x4e00 && code <= 0xa4c6) ||
      (code >= 0xa960 && code <= 0xa97c) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) ||
      (code >= 0xff01 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1b000 && code <= 0x1b001) ||
      (code >= 0x1f200 && code <= 0x1f251) ||
      (code >= 0x20000 && code <= 0x3fffd))
  );
}

function graphemeWidth(grapheme: string): number {
  if (EMOJI_GRAPHEME.test(grapheme) && EMOJI_STYLE.test(grapheme)) return 2;
  let width = 0;
  for (const char of grapheme) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) continue;
    if (code >= 0x300 && code <= 0x36f) continue;
    if (ZERO_WIDTH.test(char)) continue;
    width += isWideCodePoint(code) ? 2 : 1;
  }
  return width;
}

export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** text cut to at most maxWidth columns, ending in "…" when something was cut; whole graphemes only. */
export function truncateToWidth(text: string, maxWidth: number): string {
  if (displayWidth(text) <= maxWidth) return text;
  if (maxWidth <= 0) return '';
  const room = maxWidth - 1; // the "…" takes one column
  let kept = '';
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    const next = graphemeWidth(segment);
    if (width + next > room) break;
    kept += segment;
    width += next;
  }
  return `${kept}…`;
}
