// `leadctl sandbox --port N` where N is taken: a choice for the user to change (exit 2), not a crash.

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, tempConfigHome } from '../helpers/cli.js';

describe('leadctl sandbox on a busy port', () => {
  it('exits 2 and says to choose another port', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const { port } = holder.address() as AddressInfo;

    const result = await runCli(['sandbox', '--port', String(port)], {
      env: { XDG_CONFIG_HOME: await tempConfigHome() },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `leadctl: port 127.0.0.1:${port} is already in use\nchoose another --port (0 = any)\n`,
    );
  });
});
