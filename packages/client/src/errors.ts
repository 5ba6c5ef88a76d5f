import type { components } from './generated/openapi.js';

/** The `error` member of an envelope, as the API documents it. */
export type ApiErrorBody = components['schemas']['ApiError'];
/** Every error code the API can return (see the server's docs/api-errors.md). */
export type ApiErrorCode = ApiErrorBody['code'];

/**
 * A request-level failure: the HTTP status and the API's error envelope. Item-level errors
 * are not thrown; they are in the envelopes a batch call returns.
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | 'NETWORK_ERROR' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE',
    message: string,
    readonly details?: ApiErrorBody['details'],
    /** The `x-request-id` of the response, to quote when reporting a problem. */
    readonly requestId?: string,
    /** `cause`: the network error behind a `NETWORK_ERROR`. */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `waitForVerification` ran out of time; `last` holds the statuses it saw last. */
export class VerificationTimeoutError extends Error {
  override readonly name = 'VerificationTimeoutError';
  constructor(
    message: string,
    readonly last: unknown[],
  ) {
    super(message);
  }
}

/**
 * `waitForVerification` stopped because the API answered an item with an error (an invalid
 * name, or one not registered to this account): waiting longer cannot change that answer.
 * Unlike `ServiceApiError`, the request itself succeeded; `last` holds every envelope of that
 * poll, so each failing name can be reported.
 */
export class ItemFailedError extends Error {
  override readonly name = 'ItemFailedError';
  constructor(
    /** The first failing name, as it was asked for. */
    readonly domain: string,
    /** That item's HTTP status, e.g. 404. */
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** The envelopes of the poll that failed, in request order. */
    readonly last: components['schemas']['DomainEnvelope'][],
  ) {
    super(message);
  }
}
