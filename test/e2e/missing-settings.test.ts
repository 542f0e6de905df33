// A first run with nothing configured names everything missing at once, not one thing per run.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('missing settings', () => {
  it('no base URL and no key: both in one error, exit 3 (no API key configured)', async () => {
    const r = await runCli(['leads']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('leadctl: no API base URL and no API key are configured');
    expect(lines[1]).toContain('leadctl config set base-url <url>');
    expect(lines[1]).toContain('leadctl config set api-key');
  });

  it('a key alone is missing: exit 3 with the one way to set it', async () => {
    const r = await runCli(['history', '--base-url', 'http://127.0.0.1:9']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(
      'leadctl: no API key is configured\nrun: leadctl config set api-key (or export LEADCTL_API_KEY)\n',
    );
  });
});
