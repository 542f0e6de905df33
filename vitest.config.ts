import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // The developer's NO_COLOR, TERM, COLUMNS, LEADCTL_*, proxies and config never reach a test.
    setupFiles: ['test/helpers/clean-process-env.ts'],
    // Forks, not threads: runCli (test/helpers/cli.ts) enters a test's cwd with process.chdir, which
    // worker threads refuse, and main() traps signals for the process it runs in.
    pool: 'forks',
    // A worker runs its files one after another in one module graph, not a fresh one each: importing
    // src/ again for every file was half the suite's CPU (test/unit: 74 -> 33 s). It holds because
    // main() keeps nothing between runs (a program may call it many times) and clean-process-env.ts
    // still runs before every file.
    isolate: false,
    // Part of the time goes waiting on a spawned leadctl or a server: vitest's default (one worker per
    // core but one) runs a 2-core machine's files one at a time and leaves a core idle.
    maxWorkers: availableParallelism() + 1,
    // A safety net for a test that hangs, never a bound on speed: a loaded laptop runs the suite several
    // times slower than an idle machine, and no test may fail for that alone.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
