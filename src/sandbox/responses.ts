// What a handler answers, and the one error body shape every sandbox error uses:
// {"error": {"code": "...", "message": "...", ...details}}. `message` is always a sentence for humans.

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function ok(body: unknown, headers?: Record<string, string>): ApiResponse {
  return headers ? { status: 200, body, headers } : { status: 200, body };
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
  headers?: Record<string, string>,
): ApiResponse {
  const body = { error: { code, message, ...details } };
  return headers ? { status, body, headers } : { status, body };
}

export interface FieldProblem {
  field: string;
  reason: string;
}

/** 422 naming every problem; `field` is the first one, for clients that show only one. */
export function validationError(problems: FieldProblem[]): ApiResponse {
  const message = problems.map((problem) => `${problem.field} ${problem.reason}`).join('; ');
  return errorResponse(422, 'validation_failed', `Invalid request: ${message}.`, {
    field: problems[0]?.field,
    details: problems,
  });
}

/** Shows what the client sent without letting a huge or hostile value flood the message. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
