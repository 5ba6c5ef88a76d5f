/** The refusals of the tracking hosts' certificates, with stable codes. */

/** Why a host got no certificate; the codes are stable. */
export type TrackingCertificateErrorCode =
  /** The name is not a DNS host name (letters, digits, hyphens; two labels or more). */
  | 'TRACKING_HOST_INVALID'
  /** `allowHost` answered false. */
  | 'TRACKING_HOST_REFUSED'
  /** An order for the host failed less than `failedOrderRetryMs` ago; `cause` is that failure. */
  | 'TRACKING_ORDER_BACKOFF'
  /** The CA did not issue (validation failed, CA unreachable, timeout); `cause` says why. */
  | 'TRACKING_ORDER_FAILED'
  /** An `acme-tls/1` handshake for a host with no challenge pending. */
  | 'TRACKING_NO_CHALLENGE';

/** The error every refusal of {@link TrackingCertificates} carries. */
export class TrackingCertificateError extends Error {
  constructor(
    readonly code: TrackingCertificateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TrackingCertificateError';
  }
}
