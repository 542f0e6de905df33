// Reading a response body as JSON without changing it: numbers keep their digits and objects their
// key order (exact-json-parser.ts), at JSON.parse's speed in the common case. One regex over the body
// tells whether JSON.parse could change anything; only then does the slow parser run.

import { JsonTooDeepError, parseExactJson } from './exact-json-parser.js';

export { JsonTooDeepError } from './exact-json-parser.js';

/** Far beyond any real API body (leads nest 3 deep), far below what would exhaust the stack. */
export const MAX_JSON_DEPTH = 1000;

/**
 * Matches (at least) every place where JSON.parse would lose something: a number token in value
 * position (after `:` `,` `[`) with an exponent, 16 or more digits, five leading fraction zeros, a
 * trailing fraction zero, or `-0`; and an object key that is an array index, which a JS object would
 * move to the front. It may also match inside a string ("x: 4.50,"): that costs only the slow parser.
 */
const JSON_PARSE_COULD_CHANGE =
  /[:,[]\s*(?:-?(?:\d[\d.]*[eE]|\d[\d.]{15}|0\.0{5}|\d+\.\d*0\s*[,}\]])|-0\s*[,}\]])|"(?:0|[1-9]\d*)"\s*:/;

/** The body's value, exactly as sent; SyntaxError when it is not JSON, JsonTooDeepError when too deep. */
export function parseJsonLossless(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (JSON_PARSE_COULD_CHANGE.test(text)) return parseExactJson(text, maxDepth);
  // JSON.parse itself copes with any depth, but whatever walks the value afterwards recursively
  // (JSON.stringify among them) would not. Nesting needs brackets: few brackets, no walk.
  const value: unknown = JSON.parse(text);
  if (countOpeningBrackets(text, maxDepth) >= maxDepth) assertDepthAtMost(value, maxDepth, 1);
  return value;
}

/** How many `{` and `[` the text holds (strings included), counting no further than `atMost`. */
function countOpeningBrackets(text: string, atMost: number): number {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at >= 0 && count < atMost; at = text.indexOf(bracket, at + 1))
      count++;
  }
  return count;
}

function assertDepthAtMost(value: unknown, maxDepth: number, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > maxDepth) throw new JsonTooDeepError(maxDepth);
  if (Array.isArray(value)) {
    for (const element of value) assertDepthAtMost(element, maxDepth, depth + 1);
    return;
  }
  for (const key in value) assertDepthAtMost((value as Record<string, unknown>)[key], maxDepth, depth + 1);
}
