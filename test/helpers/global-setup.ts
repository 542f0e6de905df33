// Once per test run: leadctl's state folder (the usage ledger) goes to a private temp folder for every
// process the tests start, whether or not a test builds its environment with cleanEnv(), so no run
// writes into the real ~/.local/state. Removed when the run ends.
// And a throwaway PostgreSQL for the sync and search --db tests (postgres-cluster.ts), or the one
// TEST_POSTGRES_URL names: its address and password reach every test process through the
// environment. Without one, those tests say they skipped; in CI (CI set), the run fails instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestCluster } from './postgres-cluster.js';

export default async function setup(): Promise<() => void> {
  const state = mkdtempSync(join(tmpdir(), 'leadctl-state-'));
  process.env.XDG_STATE_HOME = state;
  let stopPostgres = () => {};
  if (!process.env.TEST_POSTGRES_URL) {
    const cluster = await startTestCluster();
    if ('missing' in cluster) {
      if (process.env.CI) throw new Error(`CI needs PostgreSQL for the sync tests: ${cluster.missing}`);
      process.env.TEST_POSTGRES_MISSING = cluster.missing;
    } else {
      process.env.TEST_POSTGRES_URL = cluster.url;
      process.env.TEST_POSTGRES_PASSWORD = cluster.password;
      stopPostgres = cluster.stop;
    }
  }
  return () => {
    stopPostgres();
    rmSync(state, { recursive: true, force: true });
  };
}
