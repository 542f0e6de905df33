// Notices and warnings for code that runs without the session's ui (the output layer decides formats
// and lays out tables before or after any progress line): the same words, safety and colours as ui.ts.
import { safeForStderr } from './safe-text.js';

export interface Messages {
  notice(message: string): void;
  warn(message: string): void;
}

export interface MessagesOptions {
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  quiet: boolean;
  color: boolean;
  /** FORCE_COLOR / CLICOLOR_FORCE: colour even when stderr is not a terminal. */
  forceColor?: boolean;
}

export const dimStyle = (on: boolean) => (text: string) => (on ? `\u001b[2m${text}\u001b[22m` : text);
export const yellowStyle = (on: boolean) => (text: string) => (on ? `\u001b[33m${text}\u001b[39m` : text);

export function createMessages({ stderr, quiet, color, forceColor }: MessagesOptions): Messages {
  const colored = color && (Boolean(stderr.isTTY) || Boolean(forceColor));
  const write = (line: string, style: (text: string) => string) => {
    if (!quiet) stderr.write(`${style(safeForStderr(line))}\n`);
  };
  return {
    notice: (message) => write(message, dimStyle(colored)),
    warn: (message) => write(`leadctl: warning: ${message}`, yellowStyle(colored)),
  };
}
