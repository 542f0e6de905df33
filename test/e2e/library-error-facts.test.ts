// A program using LeadClient gets errors it can act on (issues 33.4 and 35.3): a key the server echoes
// is masked in the message, serverMessage, the stack and a quoted retryAfter, as the CLI and MCP mask
// it; every error has its code and exit code; the hint speaks of the library's options, never of
// leadctl's commands or variables. In-process, against a real HTTP server of the test's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeadClient, type LeadError } from '../../src/index.js';
import { type FakeServer, json, startFakeServer, text } from '../helpers/fake-server.js';

const KEY = 'sk_live_echoed_secret_0123456789';
let server: FakeServer;

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());

async function failure(call: (client: LeadClient) => Promise<unknown>): Promise<LeadError> {
  const client = new LeadClient({ baseUrl: server.baseUrl, apiKey: KEY, retries: 0, maxWaitMs: 0 });
  try {
    await call(client);
  } catch (error) {
    return error as LeadError;
  } finally {
    await client.close();
  }
  throw new Error('the call did not fail');
}

const echo = `invalid key ${KEY} for this account`;

describe('an echoed key in a library error', () => {
  it.each([
    ['401', 'GET', '/api/v1/leads', json(401, { error: echo }), 'unauthorized', 3],
    ['422', 'POST', '/api/v1/search', json(422, { detail: echo }), 'request_rejected', 2],
    ['500', 'GET', '/api/v1/history', text(500, echo), 'server_error', 6],
    ['429', 'GET', '/api/v1/leads', json(429, { error: echo, retryAfter: KEY }), 'rate_limited', 5],
    ['200 not JSON', 'GET', '/api/v1/history', text(200, echo), 'bad_response', 7],
  ] as const)('%s: masked everywhere it would show', async (_what, method, path, answer, code, exit) => {
    server.route(method, path, answer);
    const error = await failure((client) =>
      method === 'POST'
        ? client.search({ query: 'plumber', location: 'Austin' })
        : path.endsWith('leads')
          ? client.listLeads({})
          : client.listHistory({}),
    );
    expect({ code: error.code, exit: error.exitCode }).toEqual({ code, exit });
    const shown = [error.message, error.stack, (error as { serverMessage?: string }).serverMessage];
    shown.push((error as { rawRetryAfter?: string }).rawRetryAfter, JSON.stringify(error));
    expect(shown.join('\n')).not.toContain(KEY);
    expect(error.message).toContain('…6789');
    expect(`${error.hint ?? ''}`).not.toMatch(/leadctl (config|auth)|LEADCTL_|--[a-z]/);
  });

  it("a 401's hint speaks of the client's apiKey; the CLI's words ride beside it", async () => {
    server.route('GET', '/api/v1/leads', json(401, { error: 'nope' }));
    const error = await failure((client) => client.listLeads({}));
    expect(error.hint).toBe('check the `apiKey` given to LeadClient: the server does not accept it');
    expect(error.cliHint).toMatch(/^run: leadctl config set api-key/);
  });

  it('an empty key: code no_api_key, exit 3, a hint about the option', () => {
    let error: LeadError | undefined;
    try {
      new LeadClient({ baseUrl: server.baseUrl, apiKey: ' ' });
    } catch (thrown) {
      error = thrown as LeadError;
    }
    expect(error).toMatchObject({ code: 'no_api_key', exitCode: 3 });
    expect(error?.hint).toBe("pass `apiKey`: the key from the account's API settings");
  });
});
