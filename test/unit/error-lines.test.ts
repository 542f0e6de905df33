// Issue 27: what the library says names its options (`baseUrl`, `maxWaitMs`), never a CLI flag; the
// CLI's lines (ui/error-lines.ts) pick their hints by error kind and put any option as its flag.
import { describe, expect, it } from 'vitest';
import { type LeadError, RateLimitedError } from '../../src/api/errors.js';
import { clientErrorFor, networkErrorFor, redirectError, serverErrorFor } from '../../src/api/http-errors.js';
import { decodeJsonObject } from '../../src/api/parse-response.js';
import { decideRetry, type RetryPolicy } from '../../src/api/retry.js';
import { parseSince } from '../../src/api/timestamp.js';
import { errorLines } from '../../src/ui/error-lines.js';

const url = new URL('http://127.0.0.1:1234/api/v1/leads');
const now = Date.UTC(2026, 10, 25, 12);
const policy: RetryPolicy = {
  retries: 0,
  rateLimitWaits: 3,
  maxWaitMs: 5000,
  backoffBaseMs: 500,
  backoffCapMs: 8000,
  random: () => 0.5,
};
const code = (name: string) => Object.assign(new Error(name), { code: name });
const thrown = (run: () => unknown): LeadError => {
  try {
    run();
  } catch (error) {
    return error as LeadError;
  }
  throw new Error('did not throw');
};
const rateLimited = (retryAfterSec: number) => {
  const decision = decideRetry(
    {
      kind: 'rate-limited',
      response: { status: 429, body: JSON.stringify({ retryAfter: now / 1000 + retryAfterSec }) },
    },
    { retries: 0, rateLimitWaits: 0 },
    policy,
    now,
    1,
  );
  if (decision.retry) throw new Error('expected to give up');
  return decision.error as RateLimitedError;
};

// [what failed, the library's error, the CLI's second line]
const cases: [string, () => LeadError, string][] = [
  [
    '404',
    () => clientErrorFor({ status: 404, body: '' }, url),
    'check --base-url: leadctl appends /api/v1/... to it, so give the address the API is served from',
  ],
  [
    '503 after retries',
    () => serverErrorFor({ status: 503, body: '' }, 4),
    'the service may be having trouble: try again later (--retries sets how often leadctl retries)',
  ],
  [
    'a redirect',
    () => redirectError(301, 'https://elsewhere.test/x', url),
    'if the API has moved, set --base-url to its new address',
  ],
  [
    'a timeout',
    () => networkErrorFor(code('UND_ERR_HEADERS_TIMEOUT'), url, 30_000) as LeadError,
    'the server is slow or unreachable: try again later, or raise --timeout',
  ],
  [
    'refused',
    () => networkErrorFor(code('ECONNREFUSED'), url, 30_000) as LeadError,
    'check --base-url, and that the server is running',
  ],
  [
    'plain http on a TLS port',
    () => networkErrorFor(code('ERR_SSL_WRONG_VERSION_NUMBER'), url, 30_000) as LeadError,
    'use http:// in --base-url for a plain-http port, or the port that serves https',
  ],
  [
    'a web page',
    () => thrown(() => decodeJsonObject({ status: 200, body: '<html></html>', contentType: 'text/html' })),
    'that looks like a web page: check that --base-url points at the API',
  ],
  [
    'a 429 resetting in 2 minutes',
    () => rateLimited(120),
    'wait until then, or raise --max-wait to let leadctl wait',
  ],
  [
    'a 429 resetting in 21 hours',
    () => rateLimited(21 * 3600),
    'try again then; leadctl usage shows what this machine has sent today',
  ],
];

describe('library texts name options; the CLI names flags', () => {
  it.each(cases)('%s', (_what, make, cliHint) => {
    const error = make();
    expect(`${error.message}\n${error.hint ?? ''}`).not.toMatch(/(^|\s)--[a-z]/);
    const lines = errorLines(error, {}, now);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(cliHint);
    expect(lines.join('\n')).not.toMatch(/`[a-zA-Z]+`/);
  });

  it('a bad `since` is the option in the library and --since on the command line', () => {
    const error = thrown(() => parseSince('yesterday', now));
    expect(error.message).toBe('invalid `since` value "yesterday"');
    expect(errorLines(error, {}, now)[0]).toBe('leadctl: invalid --since value "yesterday"');
  });

  it('a 429 hint gives the --max-wait in force when the run said it', () => {
    expect(errorLines(rateLimited(120), { maxWaitSec: 5 }, now)[1]).toBe(
      'wait until then, or raise --max-wait (now 5 s) to let leadctl wait',
    );
    expect(rateLimited(120)).toBeInstanceOf(RateLimitedError);
  });

  it('api <path> answered 404: the path is missing', () => {
    const lines = errorLines(clientErrorFor({ status: 404, body: '' }, url), { command: 'api' }, now);
    expect(lines[1]).toMatch(/^the server has no such path/);
  });
});
