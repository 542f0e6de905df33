// Once per test run: leadctl's state folder (the usage ledger) goes to a private temp folder for every
// process the tests start, whether or not a test builds its environment with cleanEnv(), so no run
// writes into the real ~/.local/state. Removed when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const state = mkdtempSync(join(tmpdir(), 'leadctl-state-'));
  process.env.XDG_STATE_HOME = state;
  return () => rmSync(state, { recursive: true, force: true });
}
