// commander argument parsers: they validate a flag's value before anything heavy loads or any
// request is sent, and throw InvalidArgumentError, which commander reports as a usage error (exit 2).
import { InvalidArgumentError } from 'commander';
import { splitFieldList } from '../output/field-choice.js';

export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      // No one types 9007199254740991: an open range says only its floor.
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(`expected a whole number ${range}.`);
    }
    return n;
  };
}

export function integerAtLeast(min: number) {
  return integerIn(min, Number.MAX_SAFE_INTEGER);
}

/** A comma-separated list of names, each maybe renamed: `--fields name:Company,phone`. */
export function fieldList(value: string): string[] {
  return splitFieldList(value);
}

/** A value that must not be empty or blank: `--location ""` is refused before any request. */
export function nonBlank(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new InvalidArgumentError('must not be empty.');
  return trimmed;
}

/** A probability from 0 to 1: `--fail-rate 0.25`. */
export function probability(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1.');
  }
  return n;
}

const SPAN_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A span of time, `90s`, `30m`, `24h`, `7d`, `2w`, in milliseconds: `--cache 1h`. */
export function timeSpan(value: string): number {
  const match = /^\s*(\d{1,9})\s*([smhdw])\s*$/i.exec(value);
  const ms = match ? Number(match[1]) * (SPAN_MS[(match[2] ?? '').toLowerCase()] ?? 0) : 0;
  if (!(ms > 0)) throw new InvalidArgumentError('expected a span of time such as 90s, 30m, 24h, 7d or 2w.');
  return ms;
}
