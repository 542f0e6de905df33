// One way for tests to get a scratch folder: created under the system temp folder as `leadctl-*`
// and removed when the test that asked for it ends, passed or failed; one asked for outside a test
// (in beforeAll or while collecting) is removed when the file's tests are over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

const forTheFile: string[] = [];
afterAll(() => {
  for (const dir of forTheFile.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty folder, removed (with everything in it) when the current test (or file) finishes. */
export function tempDir(label = 'test'): string {
  const dir = mkdtempSync(join(tmpdir(), `leadctl-${label}-`));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // Not inside a test: vitest refuses onTestFinished there.
    forTheFile.push(dir);
  }
  return dir;
}
