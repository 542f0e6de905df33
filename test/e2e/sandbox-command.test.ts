// `leadctl sandbox` as a user runs it: two lines to source on stdout, keys on stderr, serves until
// SIGINT/SIGTERM, then exits 0.
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
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints where it serves, serves leadctl, and exits 0 on %s',
    async (signal) => {
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

      server.kill(signal);
      const done = await server;
      expect(done.exitCode).toBe(0);
      expect(String(done.stderr)).toContain('sk_sandbox_agency_key_3333');
    },
  );
});
