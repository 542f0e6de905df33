// `leadctl sandbox`'s runner: sourceable lines on stdout, the keys table on stderr, and a clean stop.
import { PassThrough } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runSandbox } from '../../src/commands/sandbox/run.js';

function collect() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => {
    text += String(chunk);
  });
  return { stream, text: () => text };
}

describe('runSandbox', () => {
  it('prints the base URL and key, serves, and stops when the signal aborts', async () => {
    const stdout = collect();
    const stderr = collect();
    const controller = new AbortController();
    const running = runSandbox(
      { variant: 'a', plan: 'agency', leads: 10 },
      { stdout: stdout.stream, stderr: stderr.stream, signal: controller.signal },
    );
    await expect.poll(() => stdout.text()).toContain('LEADCTL_API_KEY=');

    const lines = stdout.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^LEADCTL_BASE_URL=http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toBe('LEADCTL_API_KEY=sk_sandbox_agency_key_3333');
    const env = Object.fromEntries(lines.map((line) => line.split('=') as [string, string]));
    const response = await request(`${env.LEADCTL_BASE_URL}/api/v1/leads`, {
      headers: { authorization: `Bearer ${env.LEADCTL_API_KEY}` },
    });
    expect(((await response.body.json()) as { meta: { total: number } }).meta.total).toBe(10);

    expect(stderr.text()).toContain('Serving until Ctrl-C');
    expect(stderr.text()).toMatch(/free\s+no API access \(403\)\s+sk_sandbox_free_key_1111/);
    expect(stderr.text()).toMatch(
      /agency \*\s+500 requests\/day, 300 live searches\/month\s+sk_sandbox_agency_key_3333/,
    );
    expect(stderr.text()).toContain('sk_sandbox_deactivated_key_4444');

    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortedError', exitCode: 130 });
    await expect(request(`${env.LEADCTL_BASE_URL}/api/v1/leads`)).rejects.toThrow();
  });
});
