import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/api/errors.js';
import { readSecret } from '../../src/ui/prompts.js';

/** A fake terminal: what the user types is written to it; raw-mode changes are recorded. */
function fakeTty() {
  const rawModes: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: (raw: boolean) => rawModes.push(raw),
  });
  const stderr = new PassThrough();
  return { stdin, stderr, rawModes, echoed: () => String(stderr.read() ?? '') };
}

describe('readSecret from a terminal', () => {
  it('prompts on stderr without echo, handles backspace and ignores arrow keys', async () => {
    const tty = fakeTty();
    const secret = readSecret(tty.stdin, 'API key: ', tty.stderr);
    tty.stdin.write('abX');
    tty.stdin.write('\u007f');
    tty.stdin.write('\u001b[D');
    tty.stdin.write('cd\r');
    await expect(secret).resolves.toBe('abcd');
    expect(tty.echoed()).toBe('API key: \n');
    expect(tty.rawModes).toEqual([true, false]);
  });

  it('Ctrl-C rejects with InterruptedError and restores the terminal', async () => {
    const tty = fakeTty();
    const secret = readSecret(tty.stdin, 'API key: ', tty.stderr);
    tty.stdin.write('abc\u0003');
    await expect(secret).rejects.toBeInstanceOf(InterruptedError);
    expect(tty.rawModes).toEqual([true, false]);
  });

  it('an empty entry is a UsageError', async () => {
    const tty = fakeTty();
    const secret = readSecret(tty.stdin, 'API key: ', tty.stderr);
    tty.stdin.write('  \n');
    await expect(secret).rejects.toMatchObject({ name: 'UsageError', message: 'no key entered' });
  });

  it('the input ending (raw mode: no key does that) is the terminal hung up, and the mode is restored', async () => {
    const tty = fakeTty();
    const secret = readSecret(tty.stdin, 'API key: ', tty.stderr);
    tty.stdin.end('ab');
    await expect(secret).rejects.toMatchObject({ name: 'InterruptedError', signal: 'SIGHUP' });
    expect(tty.rawModes).toEqual([true, false]);
  });
});

describe('readSecret from a pipe', () => {
  it('reads everything, across chunks, and trims', async () => {
    const stdin = Object.assign(Readable.from([Buffer.from('  key-'), Buffer.from('part2\r\n')]), {
      isTTY: false,
    });
    const stderr = new PassThrough();
    await expect(readSecret(stdin, 'API key: ', stderr)).resolves.toBe('key-part2');
    expect(stderr.read()).toBeNull(); // no prompt when piped
  });

  it('refuses an input far too long to be a key', async () => {
    const stdin = Object.assign(Readable.from(['x'.repeat(70_000)]), { isTTY: false });
    await expect(readSecret(stdin, 'API key: ', new PassThrough())).rejects.toThrow(/too long/);
  });
});
