// Runs one command and measures it from outside: wall time in this process, CPU time (user + system)
// and peak RSS of the child from wait4() in a small python3 wrapper (microseconds, where GNU time
// prints hundredths), or, without python3, from a preload that reads process.resourceUsage() at exit
// (node commands only). Every figure is the child's own, the server's never: it runs in another process.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WAIT4 = `import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{usage.ru_utime} {usage.ru_stime} {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status) & 255)`;
const PRELOAD = fileURLToPath(new URL('measure-preload.cjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'leadctl-bench-usage-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const hasWait4 = spawnSync('python3', ['-c', WAIT4, join(scratch, 'probe'), 'true']).status === 0;

export const usageSource = hasWait4
  ? 'wait4() rusage of the child (python3 wrapper)'
  : 'process.resourceUsage() at exit (node --require preload)';

let runNumber = 0;

/**
 * @param {string} command executable (process.execPath for node)
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, countOutput?: boolean, timeoutMs?: number }} options countOutput
 *   pipes stdout here and counts bytes and CSV records (quote-aware); otherwise stdout goes to /dev/null.
 */
export function measure(command, args, { env = process.env, countOutput = false, timeoutMs = 180_000 } = {}) {
  const usageFile = join(scratch, `usage-${++runNumber}`);
  const isNode = command === process.execPath;
  let file = command;
  let argv = args;
  const childEnv = { ...env };
  if (hasWait4) {
    file = 'python3';
    argv = ['-c', WAIT4, usageFile, command, ...args];
  } else if (isNode) {
    argv = ['--require', PRELOAD, ...args];
    childEnv.LEADCTL_BENCH_RUSAGE = usageFile;
  }
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, argv, {
      env: childEnv,
      stdio: ['ignore', countOutput ? 'pipe' : 'ignore', 'pipe'],
      timeout: timeoutMs,
    });
    const counter = countOutput ? csvCounter() : undefined;
    child.stdout?.on('data', (chunk) => counter.add(chunk));
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const usage = readUsage(usageFile);
      resolve({ wallMs, exitCode, stderr, ...usage, ...(counter ? counter.result() : {}) });
    });
  });
}

function readUsage(file) {
  try {
    const [user, system, maxRssKb] = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .pop()
      .split(' ')
      .map(Number);
    return { cpuMs: (user + system) * 1000, peakRssMb: maxRssKb / 1024 };
  } catch {
    return { cpuMs: undefined, peakRssMb: undefined };
  }
}

/** Counts bytes and CSV records: newlines outside quoted fields (a quoted field may hold newlines). */
function csvCounter() {
  let bytes = 0;
  let records = 0;
  let inQuotes = false;
  return {
    add(chunk) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === 0x22) inQuotes = !inQuotes;
        else if (byte === 0x0a && !inQuotes) records += 1;
      }
    },
    result: () => ({ bytes, records }),
  };
}
