// Every error carries both hints (issues 27, 35.3): `hint` for a program using the library names its
// options (`baseUrl`, `maxWaitMs`), never a flag, a leadctl command or a variable it never reads;
// `cliHint` names leadctl's flags. The CLI's lines (ui/error-lines.ts) are read off the object.
import { describe, expect, it } from 'vitest';
import type { LeadError, NetworkError, RateLimitedError } from '../../src/api/errors.js';
import {
  clientErrorFor,
  mayHaveRun,
  networkErrorFor,
  redirectError,
  serverErrorFor,
} from '../../src/api/http-errors.js';
import { decodeJsonObject } from '../../src/api/parse-response.js';
import { decideRetry, type RetryPolicy } from '../../src/api/retry.js';
import { failureLines, failureOf } from '../../src/ui/error-lines.js';

const url = new URL('http://127.0.0.1:1234/api/v1/leads');
const searchUrl = new URL('http://127.0.0.1:1234/api/v1/search');
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
    '401',
    () => clientErrorFor({ status: 401, body: '' }, url),
    'run: leadctl config set api-key   (or set LEADCTL_API_KEY)',
  ],
  [
    'a search sent and not answered',
    () => mayHaveRun(networkErrorFor(code('ECONNRESET'), url, 30_000) as NetworkError, 'POST', searchUrl),
    'see whether it ran with `leadctl history`; to repeat it deliberately, run the same command again (it may spend another live search)',
  ],
  [
    'response headers over the limit',
    () => networkErrorFor(code('UND_ERR_HEADERS_OVERFLOW'), url, 30_000) as LeadError,
    'check --base-url: is it the API, and not a proxy or login page in front of it?',
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
    'wait until then, or raise --max-wait (now 5 s) to let leadctl wait',
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
    expect(`${error.message}\n${error.hint ?? ''}`).not.toMatch(
      /(^|\s)--[a-z]|leadctl (config|auth|leads|history|search|usage|api)\b|LEADCTL_/,
    );
    const lines = failureLines(failureOf(error));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(cliHint);
    expect(lines.join('\n')).not.toMatch(/`[a-zA-Z]+`/);
  });

  it('a 429 resetting within the hour: the library names maxWaitMs as it was', () => {
    expect(rateLimited(120).hint).toBe(
      'wait until then, or raise `maxWaitMs` (now 5000) to let the client wait',
    );
  });

  it('api <path> answered 404: the path is missing, not the base URL', () => {
    const error = clientErrorFor({ status: 404, body: '' }, new URL('http://127.0.0.1:1234/api/v1/nothing'));
    expect(failureLines(failureOf(error))[1]).toMatch(/^the server has no such path/);
    expect(error.hint).toBe('the API serves leads, history and search under /api/v1/: check the path');
  });
});
