// The one sanitizer for text that reaches a terminal or a spreadsheet from outside: server data in
// tables and TSV, and every notice or error that quotes the server. It lives outside api/ and
// output/ so that both may use it (api/ must not import output/).
//
// Server text is untrusted: "\x1b]8;;http://evil\x07Acme" would print a hidden link, "\x1b[2J" would
// clear the screen, U+202E would reverse what follows, a zero-width space would hide in a name or
// break a table's alignment. Each such character is replaced by a visible escape, so what the user
// sees is what the server sent:
//   tab, LF, CR                       -> \t \n \r   (a table row stays one line)
//   other C0, DEL                     -> \xHH       (ESC -> \x1b: the rest of a sequence is plain text)
//   C1 (U+0080-U+009F)                -> \u0080     (U+009B, the one-byte CSI, -> \u009b)
//   invisible format characters (Unicode Cf: bidi controls U+202A-U+202E and U+2066-U+2069, U+200E,
//   U+200F, U+061C; zero-width U+200B-U+200D, U+2060-U+2064, U+FEFF; soft hyphen; tag characters),
//   line and paragraph separators, Hangul fillers -> \uHHHH (\u{HHHHH} above U+FFFF)
// The zero-width joiner inside an emoji sequence (👩‍💻) is kept: there it is part of one visible symbol.
// Other text, non-ASCII included (é, 東京, emoji), is kept as is.

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
