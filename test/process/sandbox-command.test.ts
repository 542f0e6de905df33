// `leadctl sandbox` as a user runs it: two lines to source on stdout, keys on stderr, serves until
// Ctrl-C, SIGTERM or SIGHUP, then exits as any stopped run: 130, 143, 129.
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli, tempConfigHome } from '../helpers/cli.js';

async function firstLines(stream: NodeJS.ReadableStream, count: number): Promise<string[]> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    const lines = text.split('\n');
    if (lines.length > count) return lines.slice(0, count);
  }
  return text.split('\n');
}

describe('leadctl sandbox', () => {
  it('prints where it serves, serves leadctl, and exits 130 on Ctrl-C', async () => {
    const home = await tempConfigHome();
    const server = spawnCli(['sandbox', '--leads', '30', '--daily-limit', '5', '--plan', 'pro'], {
      env: { XDG_CONFIG_HOME: home },
    });
    const [urlLine, keyLine] = await firstLines(server.stdout as NodeJS.ReadableStream, 2);
    expect(urlLine).toMatch(/^LEADCTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(keyLine).toBe('LEADCTL_API_KEY=sk_sandbox_pro_key_2222');

    const env = {
      XDG_CONFIG_HOME: home,
      LEADCTL_BASE_URL: urlLine?.split('=')[1],
      LEADCTL_API_KEY: keyLine?.split('=')[1],
    };
    const leads = await runCli(['leads', '--format', 'ndjson'], { env });
    expect(leads.exitCode).toBe(0);
    expect(leads.stderr).toContain('of 30 leads');
    // --daily-limit 5: four more requests are allowed, the sixth of the day is refused.
    for (let i = 0; i < 4; i += 1) expect((await runCli(['history'], { env })).exitCode).toBe(0);
    expect((await runCli(['history', '--max-wait', '0'], { env })).exitCode).toBe(5);

    server.kill('SIGINT');
    const done = await server;
    expect(done.exitCode).toBe(130);
    expect(String(done.stderr)).toContain('sk_sandbox_agency_key_3333');
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('stops on %s with exit %i', async (signal, exitCode) => {
    const server = spawnCli(['sandbox'], { env: { XDG_CONFIG_HOME: await tempConfigHome() } });
    await firstLines(server.stdout as NodeJS.ReadableStream, 2);
    server.kill(signal);
    expect((await server).exitCode).toBe(exitCode);
  });
});
