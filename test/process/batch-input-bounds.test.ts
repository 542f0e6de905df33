// The built leadctl against inputs that never end or unpack to gigabytes, made here when the test runs
// (never committed): each ends with exit 2 and one line, its peak memory (VmHWM, read from
// /proc/PID/status while it runs) under a bound; and a signal stops a read that waits for bytes that
// never come, with the signal's exit code and one line. Nothing is sent: the plan is refused before a
// session opens, so the base URL is a closed port.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createWriteStream, openSync, readFileSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { bombPart, workbookParts, zipArchive } from '../helpers/zip.js';

/** The goal of issue 31 for every hostile input (Node itself takes about 45 MB). */
const PEAK_LIMIT_KB = 150 * 1024;
const NOWHERE = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'k'];
const ROWS_CEILING =
  'leadctl: %s has more than 50,000 rows, the batch input ceiling; nothing was searched (raise it with --max-input-rows)\n';

/** The largest VmHWM seen while `child` runs (polled every 10 ms); past the limit it is killed, and the test fails. */
async function peakMemory(child: ResultPromise): Promise<number> {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
      if (peak > PEAK_LIMIT_KB) child.kill('SIGKILL');
    } catch {
      // Gone: the last reading stands.
    }
  }, 10);
  await child.catch(() => {});
  clearInterval(timer);
  return peak;
}

async function runMeasured(args: string[], options: Parameters<typeof spawnCli>[1] = {}) {
  const child = spawnCli(['search', ...args, ...NOWHERE], {
    ...(options.input ? {} : { stdin: 'ignore' }),
    ...options,
  });
  const peakKb = await peakMemory(child);
  const result = await child;
  return { exitCode: result.exitCode, stderr: String(result.stderr), peakKb };
}

function fifo(dir: string): string {
  const path = join(dir, 'searches.fifo');
  execFileSync('mkfifo', [path]);
  return path;
}

/** Writes unique rows into `path` until the reader goes away. */
async function feedForever(path: string): Promise<void> {
  const writer = createWriteStream(path);
  let closed = false;
  writer.on('error', () => {
    closed = true;
  });
  writer.write('query,location\n');
  for (let i = 0; !closed; i += 1000) {
    const chunk = Array.from({ length: 1000 }, (_, n) => `plumber ${i + n},Austin\n`).join('');
    if (!writer.write(chunk)) {
      await new Promise<void>((resolve) => {
        writer.once('drain', () => resolve());
        writer.once('close', () => resolve());
      });
    }
  }
  writer.destroy();
}

describe('inputs without end, or without measure: exit 2 in one line, under 150 MB', () => {
  it('--input /dev/zero', async () => {
    const run = await runMeasured(['--input', '/dev/zero']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      'leadctl: /dev/zero is not UTF-8 text (it holds NUL bytes: UTF-16 without a byte-order mark?); nothing was searched (save it as "CSV UTF-8", or: iconv -f utf-16le -t utf-8 in.txt > in.csv)\n',
    );
    expect(run.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });

  it('a FIFO fed rows without end', async () => {
    const path = fifo(tempDir('fifo'));
    const feeding = feedForever(path);
    const run = await runMeasured(['--input', path]);
    await feeding;
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(ROWS_CEILING.replace('%s', path));
    expect(run.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });

  it('a file of 3,000,000 rows', async () => {
    const path = join(tempDir('rows'), 'searches.csv');
    const handle = await open(path, 'w');
    await handle.write('query,location\n');
    for (let i = 0; i < 3_000_000; i += 100_000) {
      await handle.write(Array.from({ length: 100_000 }, (_, n) => `plumber ${i + n},Austin\n`).join(''));
    }
    await handle.close();
    const run = await runMeasured(['--input', path, '--csv']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(ROWS_CEILING.replace('%s', path));
    expect(run.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });

  it('an .xlsx of 2 MB that unpacks to 2 GiB (a zip bomb), from a file and from stdin', async () => {
    const bomb = zipArchive(workbookParts(bombPart('xl/worksheets/sheet1.xml', 2047)));
    const path = join(tempDir('bomb'), 'leads.xlsx');
    await writeFile(path, bomb);
    const why =
      'is refused: its part xl/worksheets/sheet1.xml unpacks to 2047 MiB from 2.0 MiB, over 100 times its size: a zip bomb, not a spreadsheet; nothing was searched\n';
    const fromFile = await runMeasured(['--input', path]);
    expect(fromFile.exitCode).toBe(2);
    expect(fromFile.stderr).toBe(`leadctl: ${path} ${why}`);
    expect(fromFile.peakKb).toBeLessThan(PEAK_LIMIT_KB);
    const fromStdin = await runMeasured(['--input', '-', '--dry-run'], { input: bomb });
    expect(fromStdin.exitCode).toBe(2);
    expect(fromStdin.stderr).toBe(`leadctl: standard input ${why}`);
    expect(fromStdin.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });
});

describe.each([
  ['SIGINT', 130, 'leadctl: interrupted\n'],
  ['SIGTERM', 143, 'leadctl: stopped by SIGTERM\n'],
  ['SIGHUP', 129, 'leadctl: stopped by SIGHUP\n'],
] as const)('%s while the input is read', (signal, code, line) => {
  it('a FIFO whose writer sends nothing: the read stops at once', async () => {
    const path = fifo(tempDir('fifo'));
    const child = spawnCli(['search', '--input', path, ...NOWHERE], {
      stdin: 'ignore',
      forceKillAfterDelay: false,
    });
    // Opening the write end returns once leadctl has opened the read end: it is reading.
    const writer = await open(path, 'w');
    child.kill(signal);
    const result = await child;
    await writer.close();
    expect(result.exitCode).toBe(code);
    expect(String(result.stderr)).toBe(line);
  });

  it('stdin (a pipe) that stops sending: the read stops at once', async () => {
    // A FIFO as leadctl's stdin: unlike the socket pair a spawn gives, its buffer holds 64 KiB, so a
    // longer write completes only once leadctl has read most of it.
    const path = fifo(tempDir('stdin'));
    const readEnd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = await open(path, 'w');
    const child = spawnCli(['search', '--input', '-', '--dry-run', ...NOWHERE], {
      stdin: readEnd as 3, // any descriptor of ours (execa's type names 3 to 9 only)
      forceKillAfterDelay: false,
    });
    closeSync(readEnd);
    const rows = Array.from({ length: 10_000 }, (_, n) => `plumber ${n},Austin\n`).join('');
    await writer.write(`query,location\n${rows}`);
    child.kill(signal);
    const result = await child;
    await writer.close();
    expect(result.exitCode).toBe(code);
    expect(String(result.stderr)).toBe(line);
  });
});
