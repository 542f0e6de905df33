// The CSV formula guard (CWE-1236, "CSV injection"). A spreadsheet runs a cell as a formula when it
// starts with =, +, - or @ (and tab or CR, which some strip before looking). Prefixing such a cell
// with ' makes the spreadsheet show it as text.
//
// A leading + or - is left alone when the rest is plainly a number or a phone number, so that
// "-12.5" and "+1 512-555-0101" survive a round trip. Such text can at worst be evaluated as
// arithmetic of digits; it can never call a function (HYPERLINK, WEBSERVICE) or DDE (cmd|'...'!A0),
// because letters, quotes, |, !, =, + and the like all make it "not number-like".

// First characters, as char codes: checked on every csv cell, so a compare rather than a lookup.
const TAB = 0x09;
const CR = 0x0d;
const PLUS = 0x2b;
const MINUS = 0x2d;
const EQUALS = 0x3d;
const AT = 0x40;

/** -3, +7, -12.5, -.5, -1,234.5, -1e5, +6.02E23 */
const SIGNED_NUMBER = /^[+-](?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** +1 512-555-0101, +44 20 7946 0958, +1 (512) 555.0101: digits, spaces, ( ) . - and at least one digit. */
const SIGNED_PHONE = /^[+-][\d ().-]*\d[\d ().-]*$/;

export function looksLikeFormula(text: string): boolean {
  const first = text.charCodeAt(0); // NaN for '', which matches nothing below
  if (first === EQUALS || first === AT || first === TAB || first === CR) return true;
  if (first !== PLUS && first !== MINUS) return false;
  return !(SIGNED_NUMBER.test(text) || SIGNED_PHONE.test(text));
}

/** The cell text a spreadsheet will show as text: ' prefixed when it would run as a formula. */
export function guardFormula(text: string): string {
  return looksLikeFormula(text) ? `'${text}` : text;
}
