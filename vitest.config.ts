import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // e2e tests spawn the built binary and sandbox servers: forks isolate them best.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
