// zod's issues in the project's words ("done: expected a whole number", not "Invalid input"), for the files
// leadctl reads back (the config file, a batch's state file).
import type { core } from 'zod/mini';

const TYPE_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  null: 'null',
};

/** `output.fields[2]`; '' for the top level. */
export function issuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** What is wrong, without the place: "expected a whole number", "unknown key \"x\"". */
export function issueProblem(issue: core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `expected at least ${String(issue.minimum)} ${issue.origin === 'array' ? 'entries' : 'characters'}`
        : `expected ${String(issue.minimum)} or more`;
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'string'
        ? `expected at most ${String(issue.maximum)} ${issue.origin === 'array' ? 'entries' : 'characters'}`
        : `expected ${String(issue.maximum)} or less`;
    case 'invalid_value':
      return `expected ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    case 'invalid_format':
      return 'is not in the expected form';
    default:
      return issue.message;
  }
}

/** "done: expected a whole number" (the first issue; one fix at a time reads best). */
export function describeIssue(issue: core.$ZodIssue): string {
  const where = issuePath(issue.path);
  return where === '' ? issueProblem(issue) : `${where}: ${issueProblem(issue)}`;
}
