// The library face: `import { LeadClient } from 'leadctl'`. The CLI is built on exactly these.

export { LeadClient, type RequestOptions } from './api/client.js';
export type {
  AttemptEvent,
  CallOptions,
  ClientHooks,
  DeprecationEvent,
  LeadClientOptions,
  Logger,
  RateLimitInfo,
  ResponseInfo,
  ResponsePromise,
} from './api/client-options.js';
export type { ErrorCode, HttpErrorInfo } from './api/errors.js';
export {
  AbortedError,
  AuthError,
  ERROR_CODES,
  ExitCode,
  ForbiddenError,
  HttpError,
  InterruptedError,
  LeadError,
  NetworkError,
  NotFoundError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  UsageError,
  ValidationError,
} from './api/errors.js';
export { ExactNumber, identityText } from './api/exact-number.js';
export type {
  FetchPage,
  ListAllOptions,
  PageProgress,
  PageResult,
  PaginateOptions,
} from './api/paging/index.js';
export { paginate, paginatePages } from './api/paging/index.js';
export type { RawResponse } from './api/parse-response.js';
export type { WaitEvent, WaitReason } from './api/retry.js';
export type {
  HistoryEntry,
  HistoryPage,
  Id,
  JsonNumber,
  JsonValue,
  Lead,
  LeadsPage,
  Meta,
  SearchResponse,
  SearchResult,
} from './api/schemas.js';
export { type Clock, systemClock } from './api/timestamp.js';
