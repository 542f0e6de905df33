// Everything a person reads about a run goes to stderr through here, masked and sanitized on its way
// out (safeForStderr), so server text quoted in any line is harmless. stdout never sees any of it.
import type { Ora } from 'ora';
import type { DeprecationEvent } from '../api/client-options.js';
import type { Meta } from '../api/schemas.js';
import { maskSecrets } from '../text/secrets.js';
import { capLength, sanitizeForTerminal } from '../text/terminal-text.js';

export interface UiOptions {
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** FORCE_COLOR / CLICOLOR_FORCE: colour stderr's lines even when it is not a terminal. */
  forceColor?: boolean;
  /** ACCESSIBLE and TERM are read here: plain progress lines instead of a repainted one. */
  env?: NodeJS.ProcessEnv;
}

export type Ui = Awaited<ReturnType<typeof createUi>>;

export async function createUi(options: UiOptions) {
  const { stderr, quiet, verbose, color, env = {} } = options;
  // A screen reader reads every repaint of a spinner aloud, and a dumb terminal cannot move its cursor.
  const plain = Boolean(stderr.isTTY) && !quiet && (envFlag(env.ACCESSIBLE) || env.TERM === 'dumb');
  // A terminal that reports no width (some ptys without a size, serial consoles) gets no spinner:
  // ora divides by the width to know how many lines to clear, and with 0 it clears forever.
  const interactive = Boolean(stderr.isTTY) && (stderr.columns ?? 0) > 0 && !quiet && !plain;
  // Loading ora costs tens of ms (~34 ms measured): only load it when a spinner can actually be seen.
  const ora = interactive ? (await import('ora')).default : undefined;
  let spinner: Ora | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let progressText: string | undefined;
  let waiting: { endsAt: number; describe: (msLeft: number) => string } | undefined;
  let plainLineAt = Number.NEGATIVE_INFINITY;

  // The line shown: the run's progress, then the countdown of a wait; the wait's part ends with it.
  const show = () => {
    if (!ora) return;
    let text = progressText;
    if (waiting) {
      // Whole seconds, as the line is redrawn once a second.
      const left = Math.max(0, Math.ceil((waiting.endsAt - Date.now()) / 1000) * 1000);
      const wait = waiting.describe(left);
      text = text === undefined ? wait : `${text} · ${wait}`;
      if (left === 0) {
        clearInterval(ticker);
        waiting = undefined;
        text = progressText;
      }
    }
    // A pager has the screen: no progress line over its page.
    if (paging) text = undefined;
    if (text === undefined) {
      spinner?.stop();
      spinner = undefined;
      return;
    }
    const shown = safeForStderr(text);
    // discardStdin: false, or ora puts the terminal in raw mode to swallow keys, and Ctrl-C typed
    // there no longer becomes SIGINT (the run went on to the end). Typed keys echo instead: harmless.
    if (!spinner) {
      spinner = ora({
        text: shown,
        stream: stderr,
        color: 'cyan',
        isEnabled: true,
        discardStdin: false,
      }).start();
    } else spinner.text = shown;
  };

  // A line written while the spinner runs would be overwritten by its next frame: clear it first.
  // Colour goes around a line after it is made safe, so that only our own escapes reach the terminal.
  const writeLine = (text: string, style: (safe: string) => string = (safe) => safe) => {
    spinner?.clear();
    stderr.write(`${style(safeForStderr(text))}\n`);
    spinner?.render();
  };
  const coloured = color && (Boolean(stderr.isTTY) || Boolean(options.forceColor));
  const style = (on: string, off: string) => (text: string) =>
    coloured ? `\u001b[${on}m${text}\u001b[${off}m` : text;
  const dim = style('2', '22');
  const yellow = style('33', '39');

  return {
    quiet,
    /** Information for a person: "Showing 1–25 of 300 leads". Silent with --quiet. */
    notice: (message: string) => {
      if (!quiet) writeLine(message, dim);
    },
    /** Something the user should know even if the run succeeds. Silent with --quiet. */
    warn: (message: string) => {
      if (!quiet) writeLine(`leadctl: warning: ${message}`, yellow);
    },
    /** One line per HTTP attempt and similar detail; only with --verbose. */
    debug: (message: string) => {
      if (verbose) writeLine(message);
    },
    /** The live progress line, on a terminal and not --quiet (with ACCESSIBLE or TERM=dumb: plain lines). */
    progress: (text: string) => {
      // Accessible: the first progress, then at most a line every 30 s.
      if (plain && Date.now() - plainLineAt >= 30_000) {
        plainLineAt = Date.now();
        writeLine(text, dim);
      }
      progressText = text;
      show();
    },
    stopProgress: () => {
      clearInterval(ticker);
      waiting = undefined;
      progressText = undefined;
      spinner?.stop();
      spinner = undefined;
    },
    /** A wait of `ms`: on a terminal a countdown beside the progress line until it is over; else one notice. */
    countdown: (ms: number, describe: (msLeft: number) => string) => {
      if (quiet) return;
      if (!ora) {
        writeLine(describe(ms), dim);
        return;
      }
      clearInterval(ticker);
      waiting = { endsAt: Date.now() + ms, describe };
      show();
      ticker = setInterval(show, 1000);
      ticker.unref();
    },
  };
}

// The colour decisions the ui and the output layer share (output/item-sink.ts decides for stdout).
interface ColorInputs {
  globals: { color?: boolean };
  io: { env: NodeJS.ProcessEnv };
}

/** Colour only when neither --no-color, NO_COLOR nor TERM=dumb says otherwise (and, where used, on a terminal). */
export function colorAllowed({ globals, io }: ColorInputs): boolean {
  return globals.color !== false && !io.env.NO_COLOR && io.env.TERM !== 'dumb';
}

/** FORCE_COLOR or CLICOLOR_FORCE, for `| less -R`; NO_COLOR and --no-color still win; -o files get none. */
export function colorForced(inputs: ColorInputs): boolean {
  return (
    colorAllowed(inputs) && (envFlag(inputs.io.env.FORCE_COLOR) || envFlag(inputs.io.env.CLICOLOR_FORCE))
  );
}

/** A variable that switches something on: set, not empty, not "0" or "false" (FORCE_COLOR, ACCESSIBLE). */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Far longer than any message of ours: only quoted server text could reach it. */
const MAX_LINE_LENGTH = 1000;

/** Every stderr line: the key masked, what could drive a terminal made visible, capped. */
export function safeForStderr(text: string): string {
  return text
    .split('\n')
    .map((line) => capLength(sanitizeForTerminal(maskSecrets(line)), MAX_LINE_LENGTH))
    .join('\n');
}

/** A word of a command shown to the user (a next page, a --resume), quoted for a POSIX shell if need be. */
export function shellWord(text: string): string {
  return /^[\w./:@%+,=-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** 1234567 -> "1,234,567", not toLocaleString(): its first call sets up ICU, ~15 ms of a run's start-up. */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${grouped}` : grouped;
}

/** Where one page of a list stands, as `leadctl leads` and list_leads say it; or why it holds nothing. */
export function pagePosition(meta: Meta, shown: number, noun: string): string {
  const count = formatCount;
  if (shown === 0) {
    if (meta.total === 0) return `No ${noun}.`;
    return `No ${noun} on page ${count(meta.page)}: there are ${count(meta.total)} ${noun} on ${count(meta.totalPages)} pages of ${meta.limit}.`;
  }
  const first = (meta.page - 1) * meta.limit + 1;
  return `Showing ${count(first)}–${count(first + shown - 1)} of ${count(meta.total)} ${noun} (page ${count(meta.page)} of ${count(meta.totalPages)}).`;
}

/** "in 250 ms", "in 1.3 s", "in 12 s", "in 2 min 5 s": never "0.0 s", never more digits than mean something. */
export function formatWait(ms: number): string {
  if (ms < 1) return 'now';
  if (ms < 1000) return `in ${Math.round(ms)} ms`;
  if (ms < 10_000) return `in ${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `in ${seconds} s`;
  const rest = seconds % 60;
  return `in ${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
}

/** Whether a pager (output/pager.ts) has the screen: no progress line is drawn over its page. */
let paging = false;

export function setPaging(on: boolean): void {
  paging = on;
}

const DAY_MS = 86_400_000;

/** The server's own notice, quoted, and the sunset as past or future: what to do and by when. */
export function deprecationWarning(event: DeprecationEvent, nowMs: number): string {
  const parts = ['the server says this API is deprecated'];
  if (event.notice) parts[0] += `: "${event.notice}"`;
  const since = event.deprecation ? deprecatedSince(event.deprecation) : undefined;
  if (since) parts.push(`deprecated since ${since}`);
  if (event.sunset) parts.push(sunsetText(event.sunset, nowMs));
  return `${parts.join('; ')}.`;
}

/** RFC 9745 sends `@<unix seconds>`; older servers an HTTP date; `true` says nothing about when. */
function deprecatedSince(value: string): string | undefined {
  const unix = /^@(\d+)$/.exec(value.trim());
  const at = unix ? Number(unix[1]) * 1000 : Date.parse(value);
  return Number.isFinite(at) && /\d/.test(value) ? isoDate(at) : undefined;
}

/** "sunset 2026-08-01, in 12 days"; a past one "sunset 2026-01-01, 30 days ago: it may stop answering at any time". */
function sunsetText(value: string, nowMs: number): string {
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return `Sunset: ${value}`;
  const days = Math.round(Math.abs(at - nowMs) / DAY_MS);
  const span = days === 1 ? '1 day' : `${days} days`;
  if (days === 0) return `sunset ${isoDate(at)}, today`;
  if (at < nowMs) return `sunset ${isoDate(at)}, ${span} ago: it may stop answering at any time`;
  return `sunset ${isoDate(at)}, in ${span}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
