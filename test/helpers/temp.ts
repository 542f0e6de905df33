// One way for tests to get a scratch folder: created under the system temp folder as `leadctl-*`
// and removed when the test that asked for it ends, passed or failed; one asked for outside a test
// (in beforeAll or while collecting), or for the whole file, is removed when the file's tests are over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

const forTheFile: string[] = [];

/**
 * Removes the folders of the file that just ended. clean-process-env.ts calls it after every file: a
 * worker runs its files in one module graph (vitest.config.ts), so this module outlives each file.
 */
export function removeFileTempDirs(): void {
  for (const dir of forTheFile.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh empty folder, removed (with everything in it) when the current test (or file) finishes. */
export function tempDir(label = 'test', lasts: 'test' | 'file' = 'test'): string {
  const dir = mkdtempSync(join(tmpdir(), `leadctl-${label}-`));
  try {
    if (lasts === 'file') forTheFile.push(dir);
    else onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // Not inside a test: vitest refuses onTestFinished there.
    forTheFile.push(dir);
  }
  return dir;
}
