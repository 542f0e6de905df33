// A failure in words for an assistant: our own lines (what happened, what to do, never a CLI flag the
// model cannot pass); what the server said is returned apart, for the untrusted-data block.
import {
  AuthError,
  ExitCode,
  ForbiddenError,
  HttpError,
  LeadError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  ValidationError,
} from '../api/errors.js';
import { describeDuration } from '../api/retry.js';
import { CALL_DEADLINE_SEC } from './defaults.js';
import type { KeyMasker } from './tool-result.js';

/** Why a call stopped at CALL_DEADLINE_SEC: the abort reason, so every wait and request ends with it. */
export class CallDeadlineError extends LeadError {
  constructor() {
    super(
      `this call was stopped after ${CALL_DEADLINE_SEC} s, before the host gives up on it: the API was too slow, not answering, or rate-limiting`,
      {
        exitCode: ExitCode.unavailable,
        hint: 'Nothing more is sent for it. Try once more later, or tell the user. A search sent before the stop may have spent a live search (it is counted).',
      },
    );
  }
}

export interface FailureContext {
  mask: KeyMasker;
  /** Where this session's key came from and how the user fixes it (the session's own, not the process's). */
  rejectedKeyHint: string | undefined;
  now?: () => number;
}

interface FailureText {
  lines: string[];
  /** Server text, to be shown only as quoted data. */
  quoted?: Record<string, unknown>;
}

const TELL_USER = 'Tell the user; calling again will not help.';

export function describeFailure(error: unknown, context: FailureContext): FailureText {
  const now = context.now ?? Date.now;
  if (error instanceof HttpError) return httpFailure(error, context, now());
  if (error instanceof ProtocolError) {
    return {
      lines: [
        'leadctl: the API answered something leadctl cannot read as a valid response.',
        'The service or its address may be wrong: try once more later, or tell the user.',
      ],
      quoted: { detail_quoted: error.message },
    };
  }
  if (error instanceof NetworkError) {
    return {
      lines: [
        `leadctl: ${error.message}.`,
        'The API could not be reached: try once more later, or tell the user.',
      ],
    };
  }
  if (error instanceof LeadError) {
    return { lines: error.hint ? [`leadctl: ${error.message}`, error.hint] : [`leadctl: ${error.message}`] };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [`leadctl: unexpected error: ${message}`] };
}

function httpFailure(error: HttpError, context: FailureContext, nowMs: number): FailureText {
  const status = error.status;
  const quoted =
    error.serverMessage === undefined ? undefined : { status, server_message_quoted: error.serverMessage };
  const withQuote = (lines: string[], extra: Record<string, unknown> = {}): FailureText => {
    const all = quoted || Object.keys(extra).length > 0 ? { status, ...quoted, ...extra } : undefined;
    return all ? { lines, quoted: all } : { lines };
  };
  if (error instanceof RateLimitedError) {
    if (error.resetAt) {
      return withQuote([
        `leadctl: the API's rate limit is reached (HTTP 429); it allows requests again at ${error.resetAt.toISOString()} (${describeDuration(error.resetAt.getTime() - nowMs)}).`,
        'Until then, tools that send requests answer at once without sending anything. Tell the user when the limit resets.',
      ]);
    }
    const raw = error.rawRetryAfter === undefined ? {} : { retry_after_quoted: error.rawRetryAfter };
    return withQuote(
      [
        "leadctl: the API's rate limit is reached (HTTP 429), and it did not say when it resets in a form leadctl reads.",
        'Wait before calling again, and tell the user.',
      ],
      raw,
    );
  }
  if (error instanceof AuthError) {
    const fix = context.rejectedKeyHint ? ` (${context.rejectedKeyHint})` : '';
    return withQuote([
      `leadctl: the API rejected the API key (HTTP ${status}).`,
      `The user has to fix the key in leadctl's configuration${fix}. ${TELL_USER}`,
    ]);
  }
  if (error instanceof ForbiddenError) {
    return withQuote([
      `leadctl: the API denied access (HTTP ${status}): the account may be deactivated, or its plan may not include API access.`,
      TELL_USER,
    ]);
  }
  if (error instanceof NotFoundError) {
    return withQuote([
      `leadctl: the API address answered "not found" (HTTP ${status}).`,
      `leadctl's base URL is probably wrong: the user should check it. ${TELL_USER}`,
    ]);
  }
  if (error instanceof ValidationError) {
    return withQuote([
      `leadctl: the API refused the request (HTTP ${status}).`,
      'Check the arguments against the tool description, and call again only with corrected ones.',
    ]);
  }
  if (error instanceof ServerError) {
    const tries = (error.attempts ?? 0) > 1 ? ` after ${error.attempts} attempts` : '';
    return withQuote([
      `leadctl: the API failed (HTTP ${status})${tries}.`,
      'The service may be having trouble: try once more later, or tell the user.',
    ]);
  }
  return withQuote([`leadctl: the API answered HTTP ${status}.`, TELL_USER]);
}
