// From --input to the list of searches to run: read (a file, or stdin for `-`), parse, validate every
// row, drop repeats. Any bad row refuses the whole batch here, before a request is sent.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../api/errors.js';
import { reasonOf } from '../output/write-errors.js';
import { dedupeRows, inputFingerprint } from './dedupe.js';
import { parseBatchInput } from './input-parse.js';
import { formatProblems, type SearchRow, validateEntries } from './validate.js';

export interface BatchPlan {
  /** The searches to run, in input order, repeats removed. */
  unique: SearchRow[];
  /** Rows skipped because they repeat an earlier one. */
  duplicates: number;
  fingerprint: string;
}

const INPUT_HINT =
  'the input is CSV with a header row (query,location[,radius]) or JSON lines ({"query": "...", "location": "..."})';

export async function readInputText(input: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (input === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(input, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${input}: ${reasonOf(error)}`);
  }
}

export function planBatch(text: string, source: string): BatchPlan {
  const parsed = parseBatchInput(text);
  const { rows, problems } = validateEntries(parsed.entries);
  const allProblems = [...parsed.problems, ...problems];
  if (allProblems.length > 0) {
    const n = allProblems.length;
    // One error, many lines: the first says what happened, the rest list the rows (at most 20).
    const message = `${source} has ${n} bad ${n === 1 ? 'row' : 'rows'}; nothing was searched\n${formatProblems(allProblems).join('\n')}`;
    throw new UsageError(message, INPUT_HINT);
  }
  if (rows.length === 0) throw new UsageError(`${source} has no searches in it`, INPUT_HINT);
  const { unique, duplicates } = dedupeRows(rows);
  return { unique, duplicates: duplicates.length, fingerprint: inputFingerprint(unique) };
}
