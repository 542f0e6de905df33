// Before every test file: the test process's own environment loses what a developer's shell may carry
// and leadctl reads (NO_COLOR, FORCE_COLOR, TERM, COLUMNS, LEADCTL_*, proxies), and its config home
// points at an empty folder, so that in-process tests and any child started with the parent's
// environment behave the same on every machine. Children started through cli.ts get cleanEnv() anyway.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { removeFileTempDirs } from './temp.js';

const FROM_THE_SHELL =
  /^(NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|COLUMNS|LINES|PAGER|CI|LEADCTL_.*|(HTTPS?|NO|ALL)_PROXY|https?_proxy|no_proxy|all_proxy|XDG_CONFIG_HOME|NODE_EXTRA_CA_CERTS)$/;

for (const name of Object.keys(process.env)) {
  if (FROM_THE_SHELL.test(name)) delete process.env[name];
}

const configHome = mkdtempSync(join(tmpdir(), 'leadctl-config-'));
process.env.XDG_CONFIG_HOME = configHome;
afterAll(() => rmSync(configHome, { recursive: true, force: true }));
afterAll(removeFileTempDirs);

// A tool a test drives as root can rename a file over /dev/null (zsh's `compinit -d /dev/null` did):
// every later `-o /dev/null` and `> /dev/null` on the machine would then write a file. The file that
// does it fails here (or, run in parallel, the next file to end).
const nullIsDevice = () => statSync('/dev/null').isCharacterDevice();
if (nullIsDevice()) {
  afterAll(() => {
    expect(nullIsDevice(), '/dev/null is a regular file now (restore: mknod -m 666 /dev/null c 1 3)').toBe(
      true,
    );
  });
}
