// Within a host's patience: hosts give up on a tool call at 60 s (the SDK client's default request
// timeout, which these calls keep) and show "Request timed out". Against a server that never answers,
// and one that keeps asking to wait, leadctl answers first, in its own words. The calls run side by
// side: each takes the server's whole deadline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServer, json, silence, startFakeServer } from '../helpers/fake-server.js';
import { callTool, readContent, startMcp } from '../helpers/mcp-session.js';

describe('every tool call answers before the host gives up', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
    // With the defaults (30 s per attempt, 3 retries) this took 121 s.
    server.route('GET', '/api/v1/leads', silence);
    // 5 waits of 10 s each, every one within --max-wait: 50 s in all.
    server.route('POST', '/api/v1/search', json(429, { message: 'slow down', retryAfter: 10 }));
  });
  afterAll(() => server.close());

  it("a hanging API and a rate limit that never lifts each get leadctl's message, not the host's timeout", async () => {
    const env = { LEADCTL_BASE_URL: server.baseUrl, LEADCTL_API_KEY: 'lk_test_deadline_0123456789' };
    const [hanging, limited] = await Promise.all([startMcp([], env), startMcp(['--no-confirm'], env)]);
    const answers = await Promise.all([
      callTool(hanging, 'list_leads', {}),
      callTool(limited, 'search_businesses', { query: 'plumber', location: 'Austin' }),
    ]);
    for (const answer of answers) {
      expect(answer.isError).toBe(true);
      expect(readContent(answer).ours).toBe(
        'leadctl: this call was stopped after 45 s, before the host gives up on it: the API was too slow, not answering, or rate-limiting\n' +
          'Nothing more is sent for it. Try once more later, or tell the user. A search sent before the stop may have spent a live search (it is counted).',
      );
    }
  });
});
