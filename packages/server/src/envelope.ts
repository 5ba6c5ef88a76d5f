import { type ApiErrorBody, ERROR_CATALOGUE, type ErrorCode } from './errors.js';

/** One element of a per-item response array (spec: "Response envelope"). */
export type Envelope<T> =
  | { data: T; error: null; status: 200 }
  | { data: null; error: ApiErrorBody; status: number };

export const ok = <T>(data: T): Envelope<T> => ({ data, error: null, status: 200 });

export const failed = <T>(code: ErrorCode, message: string): Envelope<T> => ({
  data: null,
  error: { code, message },
  status: ERROR_CATALOGUE[code].status,
});
