// Runs the BUILT leadctl in a pseudo-terminal, as a person at a real terminal would: stdin, stdout
// and stderr are the same tty of a given size, keys can be typed (Ctrl-C = "\x03", which the tty's
// line discipline turns into SIGINT unless leadctl switched that off) and the screen read back.
// After leadctl exits, `stty -a` runs on the SAME tty, so a test can assert the modes were restored.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type IPty, spawn as spawnPty } from '@lydell/node-pty';
import { onTestFinished } from 'vitest';
import { BIN, cleanEnv } from './cli.js';
import { tempDir } from './temp.js';

export interface PtyOptions {
  /** Terminal size; 80x24 unless told. */
  cols?: number;
  rows?: number;
  /** Added to the clean environment of cli.ts (TERM=xterm-256color, LEADCTL_PAGER=cat unless given). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface PtyExit {
  exitCode: number;
  /** The signal that ended leadctl, if one did (e.g. 'SIGINT'); -1 exit code then. */
  signal: NodeJS.Signals | undefined;
  /** Everything leadctl wrote to the terminal (stdout and stderr mixed, as on a screen), raw. */
  output: string;
  /** `stty -a` of the terminal after leadctl exited. */
  modes: TerminalModes;
}

export interface TerminalModes {
  /** The raw `stty -a` text. */
  text: string;
  /** Ctrl-C raises SIGINT (isig), lines are edited (icanon), typed keys are echoed (echo). */
  isig: boolean;
  icanon: boolean;
  echo: boolean;
}

export interface PtyRun {
  readonly pid: number;
  /** Types text into the terminal as keys ("\r" is Enter, "\x03" Ctrl-C). */
  type(keys: string): void;
  /** The output so far; ANSI escapes removed unless `{ ansi: true }`. */
  screen(options?: { ansi?: boolean }): string;
  /** Resolves once the output (ANSI escapes removed unless `{ ansi: true }`) contains or matches `text`. */
  waitFor(text: string | RegExp, options?: { timeoutMs?: number; ansi?: boolean }): Promise<string>;
  /** The terminal's modes right now (`stty -a` on the pty's device), while leadctl runs. */
  modesNow(): Promise<TerminalModes>;
  /** Resolves once the terminal's modes satisfy `test` (polled): e.g. a prompt switched echo off. */
  waitForModes(
    test: (modes: TerminalModes) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<TerminalModes>;
  /** Resolves when leadctl has exited and the terminal modes have been read. */
  exited: Promise<PtyExit>;
  /** Ends the run (SIGKILL to the process group's leader) if it is still going. */
  kill(): void;
  /** Sends a signal to leadctl itself, as `kill -INT <pid>` from another shell would (Linux: via /proc). */
  signal(name: NodeJS.Signals): Promise<void>;
}

const run = promisify(execFile);

const MARK = '__leadctl_pty_done__';

// CSI (incl. private modes like ?25l), OSC (to BEL or ST) and single-char escapes.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function parseModes(text: string): TerminalModes {
  const has = (flag: string) => new RegExp(`(^|\\s)${flag}(\\s|$)`).test(text);
  return { text, isig: has('isig'), icanon: has('icanon'), echo: has('echo') };
}

// The wrapper the pty runs: it starts leadctl in its own process group's foreground (the pty's), as
// a shell would, ignores Ctrl-C itself, reports how leadctl ended, then runs `stty -a` on the same tty.
// The report goes to a file too: node-pty may drop the last output of a process that has exited.
const WRAPPER = `
const { spawn, execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
process.on('SIGINT', () => {});
const args = JSON.parse(process.argv[1]);
const child = spawn(process.execPath, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  let modes = '';
  try { modes = execFileSync('stty', ['-a'], { stdio: ['inherit', 'pipe', 'pipe'] }).toString(); } catch {}
  const report = JSON.stringify({ code, signal, modes });
  writeFileSync(process.argv[2], report);
  process.stdout.write('\\n${MARK} ' + report + '\\n');
  process.exit(0);
});
`;

/**
 * Starts `leadctl ...args` in a new pty of the given size and environment (cli.ts's clean one plus
 * `env`); leadctl's stdin, stdout and stderr are all the terminal.
 */
export function runInPty(args: string[], options: PtyOptions = {}): PtyRun {
  const cols = options.cols ?? 80;
  const rows = options.rows ?? 24;
  // No pager unless a test asks for one (LEADCTL_PAGER: undefined and PAGER): `less` would wait for keys.
  const env = cleanEnv({ TERM: 'xterm-256color', LEADCTL_PAGER: 'cat', ...options.env });
  const definedEnv = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const reportFile = join(tempDir('pty'), 'report.json');
  const pty: IPty = spawnPty(process.execPath, ['-e', WRAPPER, JSON.stringify([BIN, ...args]), reportFile], {
    name: definedEnv.TERM ?? 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd ?? process.cwd(),
    env: definedEnv,
  });

  // A test that fails half-way leaves no leadctl behind.
  try {
    onTestFinished(() => killPty(pty));
  } catch {
    // Not inside a test.
  }

  let raw = '';
  const listeners = new Set<() => void>();
  pty.onData((chunk) => {
    raw += chunk;
    for (const listener of listeners) listener();
  });

  const visible = () => {
    const at = raw.indexOf(`${MARK} `);
    // The wrapper's own newline before the mark is not leadctl's.
    return at === -1 ? raw : raw.slice(0, at).replace(/\r?\n$/, '');
  };

  // The wrapper's report line; node-pty may report the exit before the last output has been read,
  // so the run counts as over only once that line is in (or, failing that, a moment after the exit).
  const reportLine = new RegExp(`${MARK} (\\{.*\\})\\r?\\n`);
  const exited = new Promise<PtyExit>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      const found = reportLine.exec(raw)?.[1] ?? (ended ? readReport(reportFile) : undefined);
      if (!found && !ended) return;
      done = true;
      listeners.delete(finish);
      const report = found
        ? (JSON.parse(found) as {
            code: number | null;
            signal: NodeJS.Signals | null;
            modes: string;
          })
        : { code: -1, signal: null, modes: '' };
      resolve({
        exitCode: report.code ?? -1,
        signal: report.signal ?? undefined,
        output: visible(),
        modes: parseModes(report.modes),
      });
    };
    let ended = false;
    listeners.add(finish);
    pty.onExit(() => {
      // The report line normally ends the wait at once; this is only the fallback when it never comes,
      // long enough that a loaded machine still delivers the last output first.
      setTimeout(() => {
        ended = true;
        finish();
      }, 5000);
    });
  });

  // The slave side of the pty (/dev/pts/N): stty reads its modes from outside.
  const device = (pty as IPty & { ptsName?: string }).ptsName;
  const modesNow = async () => {
    if (!device) throw new Error('pty: no device name to read the modes from');
    const { stdout } = await run('stty', ['-a', '-F', device]);
    return parseModes(stdout);
  };

  return {
    pid: pty.pid,
    type: (keys) => pty.write(keys),
    screen: (opts) => (opts?.ansi ? visible() : stripAnsi(visible())),
    waitFor: (text, opts) =>
      new Promise<string>((resolve, reject) => {
        const timeoutMs = opts?.timeoutMs ?? 20_000;
        const check = () => {
          const shown = opts?.ansi ? visible() : stripAnsi(visible());
          const hit = typeof text === 'string' ? shown.includes(text) : text.test(shown);
          if (hit) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(shown);
          }
        };
        // Not a bound on leadctl's speed: it only keeps a broken test from hanging the suite.
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`pty: no ${String(text)} on screen after ${timeoutMs} ms; screen:\n${stripAnsi(raw)}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    exited,
    modesNow,
    waitForModes: async (test, opts) => {
      const deadline = Date.now() + (opts?.timeoutMs ?? 20_000);
      for (;;) {
        const modes = await modesNow();
        if (test(modes)) return modes;
        if (Date.now() > deadline) throw new Error(`pty: terminal modes never matched; last:\n${modes.text}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    kill: () => killPty(pty),
    signal: async (name) => {
      process.kill(await childOf(pty.pid), name);
    },
  };
}

/** The pid of the wrapper's one child (leadctl), read from /proc as `pgrep -P` would. */
async function childOf(parent: number): Promise<number> {
  const { readdir, readFile } = await import('node:fs/promises');
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) return Number(entry);
  }
  throw new Error(`pty: no child of ${parent} (leadctl has exited?)`);
}

/** The wrapper's report from its file, when the terminal lost the line. */
function readReport(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function killPty(pty: IPty): void {
  try {
    pty.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}
