// One live search at a time on this machine, across every `leadctl mcp` that shares the usage ledger:
// the daily cap is read from the ledger, so a second server must not read it while the first one's
// search is in flight and not yet written. The lock is a folder `<ledger>.mcp-search.lock` (mkdir
// succeeds for one process) holding the owner's pid; unlike config/file-lock.ts it is held across an
// HTTP request, so a holder is waited for as long as it lives, and taken over once it has died.
import fs from 'node:fs';
import path from 'node:path';

/** A holder older than this is taken over even if its pid is alive (a reused pid, a hung process). */
const STALE_MS = 10 * 60_000;

export class SearchLock {
  readonly #dir: string;
  /** In-process queue: callers of this process wait here rather than polling the folder. */
  #tail: Promise<void> = Promise.resolve();

  constructor(ledgerFile: string) {
    this.#dir = `${ledgerFile}.mcp-search.lock`;
  }

  async hold<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      await this.#acquire(signal);
      try {
        return await work();
      } finally {
        fs.rmSync(this.#dir, { recursive: true, force: true });
      }
    } finally {
      release();
    }
  }

  async #acquire(signal: AbortSignal): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      if (this.#tryTake()) return;
      await sleep(Math.min(250, 10 * 1.3 ** attempt) * (1 + Math.random()), signal);
    }
  }

  #tryTake(): boolean {
    try {
      fs.mkdirSync(this.#dir);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      if (!this.#holderIsGone()) return false;
      fs.rmSync(this.#dir, { recursive: true, force: true });
      return false;
    }
    fs.writeFileSync(path.join(this.#dir, 'pid'), String(process.pid));
    return true;
  }

  #holderIsGone(): boolean {
    let pid: number;
    try {
      if (Date.now() - fs.statSync(this.#dir).mtimeMs > STALE_MS) return true;
      pid = Number(fs.readFileSync(path.join(this.#dir, 'pid'), 'utf8'));
    } catch {
      // Just made, pid not yet written, or just released: look again shortly.
      return false;
    }
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as { code?: unknown }).code === 'ESRCH';
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}
