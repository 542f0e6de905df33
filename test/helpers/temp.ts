// One way for tests to get a scratch folder: created under the system temp folder as `leadctl-*`
// and removed when the test that asked for it ends, passed or failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh empty folder, removed (with everything in it) when the current test finishes. */
export function tempDir(label = 'test'): string {
  const dir = mkdtempSync(join(tmpdir(), `leadctl-${label}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
