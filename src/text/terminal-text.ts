// The one sanitizer for server text that reaches a terminal or a spreadsheet (here so api/ and output/ both
// use it): docs/output.md, "Untrusted text from the server".

export const UNSAFE_FOR_TERMINAL =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u115f\u1160\u3164\uffa0]|(?<!\p{Extended_Pictographic}[\u{fe0f}\u{1f3fb}-\u{1f3ff}]?)\u200d|\u200d(?!\p{Extended_Pictographic})|(?!\u200d)\p{Cf}/gu;

const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The visible escape of one unsafe character (see the table above). */
export function visibleEscape(char: string): string {
  const named = NAMED_ESCAPES[char];
  if (named) return named;
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

export function sanitizeForTerminal(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, visibleEscape);
}

/** Longest server text quoted in one message. */
export const MAX_QUOTED_LENGTH = 200;

/** At most `max` characters (whole code points), ending in "…" when something was cut. */
export function capLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/** Server text for a one-line message: line breaks and tabs as spaces, the rest sanitized, capped. */
export function oneLine(value: string, max = MAX_QUOTED_LENGTH): string {
  const visible = sanitizeForTerminal(value.replace(/\r?\n|\r|\t/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return capLength(visible, max);
}
