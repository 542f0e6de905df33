// `leadctl api -F key=value` / `-f key=value`, read as gh reads them: -F turns true, false, null and
// integers into JSON values (anything else stays a string), -f always sends a string. They become the
// JSON body of a POST/PUT/PATCH/DELETE, or the query string of a GET.
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../api/errors.js';

export interface Field {
  key: string;
  value: string;
  typed: boolean;
}

/** commander argParser: splits at the first `=`, collecting repeats in order. */
export function fieldCollector(typed: boolean) {
  return (text: string, previous: Field[] = []): Field[] => {
    const at = text.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError('expected key=value, e.g. location=Austin');
    return [...previous, { key: text.slice(0, at), value: text.slice(at + 1), typed }];
  };
}

/** A JSON object in the fields' order; integers keep their digits exactly, however long. */
export function jsonBody(fields: readonly Field[]): string {
  const seen = new Set<string>();
  const members = fields.map(({ key, value, typed }) => {
    if (seen.has(key)) throw new UsageError(`field "${key}" is given twice`);
    seen.add(key);
    return `${JSON.stringify(key)}:${typed ? typedJson(value) : JSON.stringify(value)}`;
  });
  return `{${members.join(',')}}`;
}

export function queryPairs(fields: readonly Field[]): [string, string][] {
  return fields.map(({ key, value }) => [key, value]);
}

function typedJson(value: string): string {
  if (value === 'true' || value === 'false' || value === 'null') return value;
  if (/^-?(0|[1-9][0-9]*)$/.test(value)) return value;
  return JSON.stringify(value);
}
