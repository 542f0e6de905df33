// Everything a person reads about a run goes through here, to stderr: notices, warnings, the
// --verbose request log and the progress line. stdout never sees any of it. Every line is masked and
// sanitized on its way out (safe-text.ts), so server text quoted in any of them is harmless.
import type { Ora } from 'ora';
import { dimStyle, yellowStyle } from './messages.js';
import { isPaging } from './paging.js';
import { safeForStderr } from './safe-text.js';

export interface UiOptions {
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** FORCE_COLOR / CLICOLOR_FORCE: colour stderr's lines even when it is not a terminal. */
  forceColor?: boolean;
}

export interface Ui {
  readonly quiet: boolean;
  /** Information for a person: "Showing 1–25 of 300 leads". Silent with --quiet. */
  notice(message: string): void;
  /** Something the user should know even if the run succeeds. Silent with --quiet. */
  warn(message: string): void;
  /** One line per HTTP attempt and similar detail; only with --verbose. */
  debug(message: string): void;
  /** The live progress line; shown only when stderr is a terminal and not --quiet. */
  progress(text: string): void;
  /** Removes the progress line. */
  stopProgress(): void;
  /**
   * Says that the run waits for `ms`: on a terminal a live countdown added to the progress line (which
   * keeps saying how far the run has got, and updates as before), removed when the wait is over;
   * elsewhere one notice line.
   */
  countdown(ms: number, describe: (msLeft: number) => string): void;
}

export async function createUi(options: UiOptions): Promise<Ui> {
  const { stderr, quiet, verbose, color } = options;
  // A terminal that reports no width (some ptys without a size, serial consoles) gets no spinner:
  // ora divides by the width to know how many lines to clear, and with 0 it clears forever.
  const interactive = Boolean(stderr.isTTY) && (stderr.columns ?? 0) > 0 && !quiet;
  // Loading ora costs tens of ms (~34 ms measured): only load it when a spinner can actually be seen.
  const ora = interactive ? (await import('ora')).default : undefined;
  let spinner: Ora | undefined;
  let ticker: NodeJS.Timeout | undefined;
  /** What the progress line says about the run ("page 3 of 12 (250 of 1,200)"), and a wait, if any. */
  let progressText: string | undefined;
  let waiting: { endsAt: number; describe: (msLeft: number) => string } | undefined;

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
    if (isPaging()) text = undefined;
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
    const line = style(safeForStderr(text));
    if (spinner?.isSpinning) {
      spinner.clear();
      stderr.write(`${line}\n`);
      spinner.render();
    } else {
      stderr.write(`${line}\n`);
    }
  };
  const coloured = color && (Boolean(stderr.isTTY) || Boolean(options.forceColor));
  const dim = dimStyle(coloured);
  const yellow = yellowStyle(coloured);

  return {
    quiet,
    notice: (message) => {
      if (!quiet) writeLine(message, dim);
    },
    warn: (message) => {
      if (!quiet) writeLine(`leadctl: warning: ${message}`, yellow);
    },
    debug: (message) => {
      if (verbose) writeLine(message);
    },
    progress: (text) => {
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
    countdown: (ms, describe) => {
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
