// The closing line of a batch, and the error (hence exit code) it ends with when it did not fully
// succeed. The counts cover the whole batch, a stopped run and its --resume together.
import { ExitCode, LeadError } from '../api/errors.js';
import { formatCount, shellWord } from '../ui/ui.js';
import type { OutputShape, UnknownSearch } from './state.js';

export interface BatchTotals {
  /** Searches sent (every run of the batch). */
  sent: number;
  /** Of those, the ones never answered: they may have run. */
  unknown: number;
  /** Answered from the database by --cache in this run: nothing sent. */
  cached?: number;
  failed: number;
  duplicates: number;
  /** Unique searches never sent: left for --resume. */
  notRun: number;
  results: number;
}

const count = formatCount;

/** "48 sent, 1 failed, 1 skipped as duplicate; 1,130 results", and what was not run or answered. */
export function summaryLine(totals: BatchTotals): string {
  const unknown =
    totals.unknown > 0
      ? ` (${count(totals.unknown)} without an answer: ${totals.unknown === 1 ? 'it' : 'they'} may have run)`
      : '';
  const parts = [
    `${count(totals.sent)} sent${unknown}`,
    ...(totals.cached ? [`${count(totals.cached)} answered from the database`] : []),
    `${count(totals.failed)} failed`,
    `${count(totals.duplicates)} skipped as duplicate`,
  ];
  if (totals.notRun > 0) parts.push(`${count(totals.notRun)} not run`);
  return `${parts.join(', ')}; ${count(totals.results)} ${totals.results === 1 ? 'result' : 'results'}`;
}

/** "line 4 (plumber, Dallas), line 9 (roofer, Waco)", at most 10. */
export function linesOf(searches: readonly UnknownSearch[]): string {
  const named = searches
    .slice(0, 10)
    .map((search) => `line ${search.line} (${search.query}, ${search.location})`);
  if (searches.length > 10) named.push(`and ${count(searches.length - 10)} more`);
  return named.join(', ');
}

const searchesWere = (n: number) => `${count(n)} ${n === 1 ? 'search was' : 'searches were'}`;

/** At a stop: what was in flight. */
export function unknownAtStop(searches: readonly UnknownSearch[], resumable: boolean): string {
  const then = resumable
    ? '; --resume will not send them again unless you add --resend-unknown'
    : '; running the batch again sends them again';
  return `${searchesWere(searches.length)} sent without an answer and may have run (spending live searches): ${linesOf(searches)}${then}`;
}

/** At a resume: what it passes over. */
export function unknownNotResent(searches: readonly UnknownSearch[]): string {
  return `${searchesWere(searches.length)} sent by the stopped run without an answer and may have run: ${linesOf(searches)}; they are not sent again (stop now and add --resend-unknown to send them)`;
}

/** The batch finished, but some searches were passed over as unknown: exit 6, like a search that may have run. */
export function unknownRowsError(unknown: number): LeadError {
  return new LeadError(
    `${searchesWere(unknown)} sent without an answer and not sent again: their results are not in the output (listed above)`,
    {
      exitCode: ExitCode.unavailable,
      hint: 'they may have run and spent live searches; to search them again, put them in a new --input file',
    },
  );
}

/** Every row ran, but the server refused some (422): exit 2, like a single refused search. */
export function failedRowsError(failed: number, total: number): LeadError {
  return new LeadError(
    `${count(failed)} of ${count(total)} searches failed: the server refused them (listed above)`,
    { exitCode: ExitCode.usage },
  );
}

/** --max-requests was reached with rows left: exit 5, like a rate-limit stop, since both mean "out of quota". */
export function requestCapError(maxRequests: number, notRun: number): LeadError {
  return new LeadError(`stopped at --max-requests ${count(maxRequests)}: ${searchesWere(notRun)} not run`, {
    code: 'max_requests',
  });
}

/** The command that continues a stopped batch, with the output options it must repeat. */
export function resumeCommand(
  input: string,
  output: string,
  shape: OutputShape,
  inputWords: readonly string[] = [],
): string {
  const words = ['leadctl', 'search', '--input', input, ...inputWords, '-o', output, '--resume'];
  words.push('--format', shape.format);
  if (shape.fields) words.push('--fields', shape.fields.join(','));
  if (!shape.header) words.push('--no-header');
  if (!shape.sanitize) words.push('--no-sanitize');
  if (shape.unique) words.push('--unique');
  for (const condition of shape.where ?? []) words.push('--where', condition);
  return words.map(shellWord).join(' ');
}
