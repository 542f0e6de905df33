// Questions on a terminal: a line, and a secret without putting it on the command line (all of stdin
// when piped, `echo "$KEY" | leadctl config set api-key`; a prompt that doesn't echo on a terminal).
// A terminal closed under a question ends its input just before its SIGHUP: in raw mode (the hidden prompt)
// an end is always that, a line's end is told from Ctrl-D a moment later. Either stops the run (exit 129).
import { setTimeout as wait } from 'node:timers/promises';
import { abortErrorFor, InterruptedError, UsageError } from '../api/errors.js';

type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Far more than any API key: a bigger input is a wrong file piped in, not a key. */
const MAX_SECRET_BYTES = 64 * 1024;

/** Trimmed; UsageError when empty, InterruptedError on Ctrl-C at the prompt (raw mode: no SIGINT). */
export async function readSecret(
  input: TerminalInput,
  prompt: string,
  output: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<string> {
  const secret = input.isTTY ? await promptHidden(input, prompt, output, signal) : await readAll(input);
  const trimmed = secret.trim();
  if (trimmed === '') {
    throw new UsageError(
      input.isTTY ? 'no key entered' : 'no key on standard input',
      'run: leadctl config set api-key   (then type or paste the key)',
    );
  }
  return trimmed;
}

const hungUpError = () => new InterruptedError('SIGHUP');
const HANG_UP_GRACE_MS = 100;

/** One line, echoed; Ctrl-C is SIGINT, the run's signal, as for any command. Undefined on Ctrl-D. */
export async function askLine(
  { stdin: input, stderr: output }: { stdin: TerminalInput; stderr: NodeJS.WritableStream },
  question: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input, terminal: false });
  try {
    return await new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(abortErrorFor(signal.reason)), { once: true });
      lines.once('line', (line) => resolve(line.trim()));
      // Ctrl-D, or a hang-up just before the kernel marks the terminal gone (no tty) and sends SIGHUP
      // (which rejects through `signal`): told apart a moment later. Ctrl-D's line end is written here.
      lines.once('close', async () => {
        if (input.isTTY) await wait(HANG_UP_GRACE_MS);
        if (input.isTTY && !(await import('node:tty')).isatty(0)) return reject(hungUpError());
        output.write('\n');
        resolve(undefined);
      });
      lines.once('error', () => reject(hungUpError()));
      output.write(question);
    });
  } finally {
    lines.close();
  }
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_SECRET_BYTES) throw new UsageError('standard input is too long to be an API key');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const ENTER = new Set(['\r', '\n', '\u0004']); // Enter, or Ctrl-D like a shell's end of input
const CTRL_C = '\u0003';
const BACKSPACE = new Set(['\u007f', '\b']);
const ESCAPE = '\u001b';

function promptHidden(
  input: TerminalInput,
  prompt: string,
  output: NodeJS.WritableStream,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (signal?.aborted) return Promise.reject(abortErrorFor(signal.reason));
  // In raw mode the terminal neither echoes nor turns Ctrl-C into SIGINT: we handle both keys here.
  // Raw mode goes on before the prompt shows, so a key pasted the moment the prompt appears is not echoed.
  input.setRawMode?.(true);
  output.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      input.off('data', onData);
      input.off('end', onHangUp);
      signal?.removeEventListener('abort', onAbort);
      input.setRawMode?.(false); // on a hung-up terminal: an 'error' event (EIO), which onHangUp takes
      input.off('error', onHangUp);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(typed.join(''));
    };
    const onData = (chunk: string | Buffer) => {
      for (const char of String(chunk)) {
        if (ENTER.has(char)) return finish();
        if (char === CTRL_C) return finish(new InterruptedError());
        // Arrow keys and the like arrive as one escape sequence per chunk: drop the rest of it.
        if (char === ESCAPE) return;
        if (BACKSPACE.has(char)) typed = typed.slice(0, -1);
        else if (char >= ' ') typed.push(char);
      }
    };
    const onAbort = () => finish(abortErrorFor(signal?.reason));
    const onHangUp = () => finish(hungUpError());
    input.on('data', onData);
    // In raw mode no key ends the input (Ctrl-D is a character): an end is the terminal gone.
    input.on('end', onHangUp);
    input.on('error', onHangUp);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
