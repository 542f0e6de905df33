// Server data is untrusted: a name like "\x1b]8;;http://evil\x07Acme" would print a hidden link, a
// "\x1b[2J" would clear the screen, U+202E would reverse what follows. sanitizeForTerminal replaces
// every such character with a visible escape, so what the user sees is what the server sent:
//   tab, LF, CR           -> \t \n \r   (a table row stays one line)
//   other C0, DEL         -> \xHH       (ESC -> \x1b, BEL -> \x07, backspace -> \x08, DEL -> \x7f)
//   C1 (U+0080-U+009F)    -> \uHHHH     (U+009B, the one-byte CSI, -> \u009b)
//   bidi controls and line/paragraph separators (U+061C, U+200E, U+200F, U+202A-U+202E,
//   U+2066-U+2069, U+2028, U+2029) -> \uHHHH
// ESC is the start of every escape sequence, so escaping it leaves the rest of the sequence as
// harmless printable text. Other text, non-ASCII included (é, 東京, emoji), is kept as is.

export const UNSAFE_FOR_TERMINAL =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The visible escape of one unsafe character (see the table above). */
export function visibleEscape(char: string): string {
  const named = NAMED_ESCAPES[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x80
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function sanitizeForTerminal(text: string): string {
  return text.replace(UNSAFE_FOR_TERMINAL, visibleEscape);
}
