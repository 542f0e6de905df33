// A session that always ends clean: a host that cancels a call and then closes stdin gets exit 0,
// and the request the cancelled call sent is in the usage ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServer, json, silence, startFakeServer } from '../helpers/fake-server.js';
import { readLedger, today } from '../helpers/ledger.js';
import { callTool, startMcp } from '../helpers/mcp-session.js';
import { tempDir } from '../helpers/temp.js';

describe('leadctl mcp ends clean', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(() => server.close());

  it('cancel, then close stdin: exit 0, and the usage of the session recorded', async () => {
    // The first page never comes: the call is still waiting when the host cancels it.
    server.route('GET', '/api/v1/leads', silence);
    server.route(
      'GET',
      '/api/v1/history',
      json(200, { history: [], meta: { page: 1, limit: 25, total: 0, totalPages: 0 } }),
    );
    const state = tempDir('mcp-state');
    const mcp = await startMcp([], {
      LEADCTL_BASE_URL: server.baseUrl,
      LEADCTL_API_KEY: 'lk_test_cancel_0123456789',
      XDG_STATE_HOME: state,
    });
    expect((await callTool(mcp, 'list_search_history', {})).isError).toBeFalsy();
    const before = server.requests.length;
    const cancel = new AbortController();
    const pending = mcp.client.callTool({ name: 'list_leads', arguments: {} }, undefined, {
      signal: cancel.signal,
    });
    await expect.poll(() => server.requests.length).toBe(before + 1);
    cancel.abort('the user pressed stop');
    await expect(pending).rejects.toThrow();
    const { exitCode, stderr } = await mcp.closeInput();
    expect(stderr).not.toMatch(/Error|at .*\.js:\d+/);
    expect(exitCode).toBe(0);
    // Both requests, the cancelled one included.
    expect(readLedger(state).entries[0].days[today()]).toMatchObject({ requests: 2 });
  });
});
