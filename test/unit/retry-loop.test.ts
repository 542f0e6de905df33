import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, ServerError, ValidationError } from '../../src/api/errors.js';
import { type AttemptOutcome, type RetryPolicy, type WaitEvent, withRetries } from '../../src/api/retry.js';
import { createFakeClock } from '../helpers/fake-server.js';

const policy: RetryPolicy = {
  retries: 3,
  rateLimitWaits: 5,
  maxWaitMs: 60_000,
  backoffBaseMs: 500,
  backoffCapMs: 8000,
  random: () => 1,
};

/** An attempt function that plays the outcomes in order and counts its calls. */
function script<T>(...outcomes: Array<AttemptOutcome<T> | Error>) {
  const calls: number[] = [];
  const attempt = async (n: number): Promise<AttemptOutcome<T>> => {
    calls.push(n);
    const next = outcomes[Math.min(calls.length - 1, outcomes.length - 1)]!;
    if (next instanceof Error) throw next;
    return next;
  };
  return { attempt, calls };
}

const ok = <T>(value: T): AttemptOutcome<T> => ({ kind: 'success', value });
const status = (code: number, body = '', retryAfterHeader?: string): AttemptOutcome<never> =>
  code === 429
    ? { kind: 'rate-limited', response: { status: code, body }, retryAfterHeader }
    : { kind: 'server-error', response: { status: code, body }, retryAfterHeader };
const refused = (): AttemptOutcome<never> => ({
  kind: 'network',
  error: new NetworkError('cannot reach 127.0.0.1:1 (connection refused)', 'refused'),
});

describe('withRetries', () => {
  it('returns the first success without waiting', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(ok('done'));
    await expect(withRetries(attempt, policy, clock)).resolves.toBe('done');
    expect(calls).toEqual([1]);
    expect(clock.sleeps).toEqual([]);
  });

  it('retries 5xx with doubling backoff, then succeeds', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(status(500), status(502), status(504), ok(1));
    await expect(withRetries(attempt, policy, clock)).resolves.toBe(1);
    expect(calls).toEqual([1, 2, 3, 4]);
    expect(clock.sleeps).toEqual([500, 1000, 2000]);
  });

  it('gives up after `retries` retries with a ServerError naming the attempts', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(status(503, 'upstream down'));
    const error = await withRetries(attempt, policy, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toBe('server error (503) after 4 attempts: upstream down');
    expect((error as ServerError).exitCode).toBe(6);
    expect(calls).toHaveLength(4);
  });

  it('does not retry a 501 (not a transient status)', async () => {
    const { attempt, calls } = script(status(501));
    await expect(withRetries(attempt, policy, createFakeClock())).rejects.toBeInstanceOf(ServerError);
    expect(calls).toEqual([1]);
  });

  it('retries network failures and reports the attempt count when it gives up', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(refused());
    const error = await withRetries(attempt, { ...policy, retries: 2 }, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(
      'cannot reach 127.0.0.1:1 (connection refused) after 3 attempts',
    );
    expect((error as NetworkError).kind).toBe('refused');
    expect(calls).toEqual([1, 2, 3]);
  });

  it('never retries what the attempt throws (4xx, protocol errors)', async () => {
    const { attempt, calls } = script<never>(
      new ValidationError('server refused the request (422)', { status: 422 }),
    );
    await expect(withRetries(attempt, policy, createFakeClock())).rejects.toBeInstanceOf(ValidationError);
    expect(calls).toEqual([1]);
  });

  it('waits for a 429 until the time in the body, and tells the hook', async () => {
    const clock = createFakeClock();
    const retryAt = Math.floor(clock.now() / 1000) + 20; // Unix seconds, 20 s ahead
    const waits: WaitEvent[] = [];
    const { attempt } = script(status(429, JSON.stringify({ retryAfter: retryAt })), ok('after'));
    await expect(withRetries(attempt, policy, clock, { onWait: (e) => waits.push(e) })).resolves.toBe(
      'after',
    );
    expect(clock.sleeps).toEqual([20_000]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatchObject({
      reason: 'rate-limited',
      attempt: 1,
      status: 429,
      retry: 1,
      maxRetries: 5,
    });
  });

  it('falls back to the Retry-After header, then to backoff', async () => {
    const clock = createFakeClock();
    const { attempt } = script(status(429, '{}', '7'), status(429, 'slow down'), ok(true));
    await withRetries(attempt, policy, clock);
    // The second 429 wait: backoff step 2 (random() = 1 gives the ceiling, 2 * 500 ms).
    expect(clock.sleeps).toEqual([7000, 1000]);
  });

  it('stops at once with exit 5 when the 429 wait exceeds max-wait', async () => {
    const clock = createFakeClock();
    const resetAt = Date.UTC(2026, 10, 23);
    const body = JSON.stringify({ error: { message: 'Daily limit exceeded', retryAfter: resetAt / 1000 } });
    const { attempt, calls } = script(status(429, body));
    const error = (await withRetries(attempt, policy, clock).catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.exitCode).toBe(5);
    expect(error.resetAt?.getTime()).toBe(resetAt);
    expect(error.message).toMatch(
      /^rate limit reached \(Daily limit exceeded\): the server allows more requests at .* \(00:00 UTC\), in 7h 12m$/,
    );
    expect(calls).toEqual([1]);
    expect(clock.sleeps).toEqual([]);
  });

  it('a 429 that names no reset time never waits longer than max-wait, whatever the backoff', async () => {
    const clock = createFakeClock();
    const waits: WaitEvent[] = [];
    const { attempt, calls } = script(status(429, 'slow down'), ok('done'));
    // Backoff's first step is 500 ms (random() = 1); max-wait is 300 ms.
    const run = withRetries(attempt, { ...policy, maxWaitMs: 300 }, clock, { onWait: (e) => waits.push(e) });
    await expect(run).resolves.toBe('done');
    expect(waits.map((event) => event.waitMs)).toEqual([300]);
    expect(clock.sleeps).toEqual([300]);
    expect(calls).toEqual([1, 2]);
  });

  it('waits for a reset exactly max-wait away: only a longer one stops the call', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(status(429, '{}', '60'), ok('after a minute'));
    await expect(withRetries(attempt, policy, clock)).resolves.toBe('after a minute');
    expect(clock.sleeps).toEqual([60_000]);
    expect(calls).toEqual([1, 2]);
    const { attempt: longer } = script(status(429, '{}', '61'), ok('never'));
    await expect(withRetries(longer, policy, createFakeClock())).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('does not wait on an unreadable retryAfter and quotes it', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(status(429, JSON.stringify({ retryAfter: 'tomorrow' })));
    const error = (await withRetries(attempt, policy, clock).catch((e: unknown) => e)) as RateLimitedError;
    expect(error.message).toBe('rate limit reached; the server says retry after "tomorrow"');
    expect(error.rawRetryAfter).toBe('tomorrow');
    expect(calls).toEqual([1]);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up on 429 after its own number of waits', async () => {
    const clock = createFakeClock();
    const { attempt, calls } = script(status(429, JSON.stringify({ retryAfter: 1 })));
    const error = await withRetries(attempt, { ...policy, rateLimitWaits: 2 }, clock).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as Error).message).toMatch(/still limited after 2 waits/);
    expect(calls).toEqual([1, 2, 3]);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it('keeps 429 waits and 5xx retries in separate budgets', async () => {
    const clock = createFakeClock();
    const limited = status(429, JSON.stringify({ retryAfter: 1 }));
    const { attempt, calls } = script(limited, status(500), limited, status(500), ok('x'));
    await expect(withRetries(attempt, { ...policy, retries: 2, rateLimitWaits: 2 }, clock)).resolves.toBe(
      'x',
    );
    expect(calls).toHaveLength(5);
  });

  it("honours a 503's Retry-After within max-wait, and refuses one beyond it", async () => {
    const clock = createFakeClock();
    const { attempt } = script(status(503, '', '3'), ok(1));
    await withRetries(attempt, policy, clock);
    expect(clock.sleeps).toEqual([3000]);

    const { attempt: longer, calls } = script(status(503, '', '3600'));
    const error = await withRetries(longer, policy, createFakeClock()).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'server error (503) (it asks to retry in 1h 0m, longer than the longest wait allowed)',
    );
    expect(calls).toEqual([1]);
  });

  it('stops when the signal aborts during a wait, without another attempt', async () => {
    const controller = new AbortController();
    const clock = createFakeClock();
    const { attempt, calls } = script(status(500), ok(1));
    const onWait = () => controller.abort(new Error('stopped by user'));
    await expect(withRetries(attempt, policy, clock, { onWait }, controller.signal)).rejects.toThrow(
      'stopped by user',
    );
    expect(calls).toEqual([1]);
  });
});
