// The sliding window of paginate.ts (its header proves why this is correct): keeps `window` page
// requests in flight, sends a head probe now and then, and hands pages out in page order once each may
// be judged. It only schedules and orders; the walk judges and writes.
//
// Time is a counter that ticks at every response: a request sent at tick s went out after every
// response stamped <= s had arrived, so its snapshot is later than theirs.

import type { PageResult } from './paginate.js';

/** What a head probe (or page 1) saw: the list's first id and its total. */
export interface Head {
  firstId: string | undefined;
  total: number;
}

/** Where the walk's cursor stands, as the pipeline needs it. */
export interface CursorClock {
  /** The tick of the response whose snapshot the cursor is valid at. */
  readyAt: number;
  /** The cursor was taken from the anchor's list itself (the anchor, or a confirmed page). */
  onAnchorList: boolean;
}

export type PipelineStep<T> =
  /** Sent after the cursor's snapshot: judge it on its own, like a sequential page. */
  | { kind: 'later'; page: number; result: PageResult<T>; readyAt: number }
  /** Proven to show the anchor's list, as it still stood at tick `readyAt`. */
  | { kind: 'confirmed'; page: number; result: PageResult<T>; readyAt: number }
  /** The list changed: the pages from here on cannot be trusted. */
  | { kind: 'changed' }
  /** Every planned page was handed out. */
  | { kind: 'end' };

export interface PipelinePlan {
  /** The list at the start of the pipeline; every page is sent after it was read. */
  anchor: Head;
  firstPage: number;
  lastPage: number;
  /** Page requests in flight. */
  window: number;
  /** Page requests between two probes. */
  probeEvery: number;
  /** Pages sent but not handed out yet, at most. */
  holdLimit: number;
}

interface SentPage<T> {
  sentAt: number;
  completedAt?: number;
  result?: PageResult<T>;
}
interface SentProbe {
  sentAt: number;
  completedAt?: number;
}

export class PagePipeline<T> {
  private clock = 0;
  private nextOut: number;
  private nextToSend: number;
  private readonly pages = new Map<number, SentPage<T>>();
  private inFlight = 0;
  private probeInFlight: SentProbe | undefined;
  private lastProbeSentAt = -1;
  /** The latest probe that agreed with the anchor; probes go one at a time, so all before it agreed. */
  private lastAgreed: SentProbe | undefined;
  private changed = false;
  private sentSinceProbe = 0;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private stopped = false;
  /**
   * The consumer's cursor as of its last call. Answers refill the window at once, with this cursor,
   * rather than when the consumer next asks: it may be busy writing. A stale cursor is safe here: it
   * only decides when requests go out; whether a page may be handed out is judged in next().
   */
  private cursor: CursorClock = { readyAt: 0, onAnchorList: true };

  constructor(
    private readonly plan: PipelinePlan,
    private readonly fetchPage: (page: number) => Promise<PageResult<T>>,
    private readonly fetchHead: () => Promise<Head>,
  ) {
    this.nextOut = plan.firstPage;
    this.nextToSend = plan.firstPage;
  }

  /** Probes sent so far (for tests). */
  probesSent = 0;

  /** Sends the first window of requests, before the consumer asks for the first page. */
  start(cursor: CursorClock): void {
    this.cursor = cursor;
    this.topUp(cursor);
  }

  /** No more requests: the walk has left the pipeline. */
  stop(): void {
    this.stopped = true;
  }

  async next(cursor: CursorClock): Promise<PipelineStep<T>> {
    this.cursor = cursor;
    // Let responses that arrived while the consumer was busy be recorded, so the window refills now
    // rather than after every held page has been written.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.nextOut > this.plan.lastPage) return { kind: 'end' };
      this.topUp(cursor);
      const sent = this.pages.get(this.nextOut);
      if (sent?.result !== undefined && sent.completedAt !== undefined) {
        const step = this.stepFor(sent, sent.result, sent.completedAt, cursor);
        if (step) {
          if (step.kind !== 'changed') this.pages.delete(this.nextOut++);
          return step;
        }
      }
      if (this.inFlight === 0 && !this.probeInFlight) throw new Error('paginate: pipeline stalled');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private stepFor(
    sent: SentPage<T>,
    result: PageResult<T>,
    completedAt: number,
    cursor: CursorClock,
  ): PipelineStep<T> | undefined {
    const page = this.nextOut;
    if (sent.sentAt >= cursor.readyAt) return { kind: 'later', page, result, readyAt: completedAt };
    if (result.meta.total !== this.plan.anchor.total) return { kind: 'changed' };
    const probe = this.lastAgreed;
    if (probe?.completedAt !== undefined && probe.sentAt >= this.needsProbeAfter(completedAt, cursor)) {
      return { kind: 'confirmed', page, result, readyAt: probe.completedAt };
    }
    return this.changed ? { kind: 'changed' } : undefined;
  }

  /** A probe confirms a page only if sent after the page's response and after the cursor's snapshot. */
  private needsProbeAfter(completedAt: number, cursor: CursorClock): number {
    return cursor.onAnchorList ? completedAt : Math.max(completedAt, cursor.readyAt);
  }

  private topUp(cursor: CursorClock): void {
    if (this.stopped || this.failure) return;
    const { lastPage, window, holdLimit, probeEvery } = this.plan;
    const canSend = () =>
      !this.changed && this.nextToSend <= lastPage && this.nextToSend - this.nextOut < holdLimit;
    while (this.inFlight < window && canSend()) this.sendPage(this.nextToSend++);
    if (this.changed || this.probeInFlight) return;
    const head = this.pages.get(this.nextOut);
    const headWaits =
      head?.completedAt !== undefined &&
      head.sentAt < cursor.readyAt &&
      this.lastProbeSentAt < this.needsProbeAfter(head.completedAt, cursor);
    const anyUnconfirmed = [...this.pages.values()].some(
      (sent) => sent.completedAt !== undefined && sent.completedAt > this.lastProbeSentAt,
    );
    // Every `probeEvery` pages, or once nothing more can go out and the next page waits for a probe.
    if ((anyUnconfirmed && this.sentSinceProbe >= probeEvery) || (headWaits && this.inFlight === 0)) {
      this.sendProbe();
    }
  }

  private sendPage(page: number): void {
    const sent: SentPage<T> = { sentAt: this.clock };
    this.pages.set(page, sent);
    this.inFlight += 1;
    this.sentSinceProbe += 1;
    this.fetchPage(page).then(
      (result) => {
        this.inFlight -= 1;
        sent.result = result;
        sent.completedAt = ++this.clock;
        this.topUp(this.cursor);
        this.notify();
      },
      (error: unknown) => this.fail(error),
    );
  }

  private sendProbe(): void {
    const probe: SentProbe = { sentAt: this.clock };
    this.probeInFlight = probe;
    this.lastProbeSentAt = probe.sentAt;
    this.sentSinceProbe = 0;
    this.probesSent += 1;
    this.fetchHead().then(
      (head) => {
        probe.completedAt = ++this.clock;
        this.probeInFlight = undefined;
        const { anchor } = this.plan;
        if (head.firstId === anchor.firstId && head.total === anchor.total) this.lastAgreed = probe;
        else this.changed = true;
        this.topUp(this.cursor);
        this.notify();
      },
      (error: unknown) => this.fail(error),
    );
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
