// The closing line of a batch, and the error (hence exit code) it ends with when it did not fully
// succeed. The counts cover the whole batch, a stopped run and its --resume together.
import { ExitCode, LeadError } from '../api/errors.js';
import { formatCount } from '../ui/count.js';
import type { OutputShape } from './state.js';

export interface BatchTotals {
  searched: number;
  failed: number;
  duplicates: number;
  /** Unique searches neither finished nor failed: left for --resume. */
  notRun: number;
  results: number;
}

const count = formatCount;

/** "48 searched, 1 failed, 1 skipped as duplicate; 1,130 results" (+ ", 12 not run" when stopped). */
export function summaryLine(totals: BatchTotals): string {
  const parts = [
    `${count(totals.searched)} searched`,
    `${count(totals.failed)} failed`,
    `${count(totals.duplicates)} skipped as duplicate`,
  ];
  if (totals.notRun > 0) parts.push(`${count(totals.notRun)} not run`);
  return `${parts.join(', ')}; ${count(totals.results)} ${totals.results === 1 ? 'result' : 'results'}`;
}

/** Every row ran, but the server refused some (422): exit 2, like a single refused search. */
export function failedRowsError(failed: number, total: number): LeadError {
  return new LeadError(
    `${count(failed)} of ${count(total)} searches failed: the server refused them (listed above)`,
    {
      exitCode: ExitCode.usage,
    },
  );
}

/** --max-requests was reached with rows left: exit 5, like a rate-limit stop, since both mean "out of quota". */
export function requestCapError(maxRequests: number, notRun: number): LeadError {
  const rest = `${count(notRun)} ${notRun === 1 ? 'search was' : 'searches were'} not run`;
  return new LeadError(`stopped at --max-requests ${count(maxRequests)}: ${rest}`, {
    exitCode: ExitCode.rateLimited,
  });
}

/** The command that continues a stopped batch, with the output options it must repeat. */
export function resumeCommand(input: string, output: string, shape: OutputShape): string {
  const words = ['leadctl', 'search', '--input', input, '-o', output, '--resume', '--format', shape.format];
  if (shape.fields) words.push('--fields', shape.fields.join(','));
  if (!shape.header) words.push('--no-header');
  if (!shape.sanitize) words.push('--no-sanitize');
  if (shape.unique) words.push('--unique');
  return words.map(shellQuote).join(' ');
}

function shellQuote(word: string): string {
  return /^[\w./:@%+,=-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
