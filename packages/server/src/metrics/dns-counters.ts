/**
 * The DKIM responder's counters, in memory shared by its thread and the main thread (issue 39).
 * The thread answers ~30k queries/s: a message per query, or a lock, would cost more than the
 * answer, so each query is one increment in a `Float64Array` over a `SharedArrayBuffer` that the
 * thread writes alone and the main thread reads at scrape time. Float64 counts exactly to 2^53
 * (never wraps in practice); an aligned 64-bit store is not torn on the platforms Node runs on,
 * and a scrape that reads a count one query late is as good as one that does not.
 *
 * The buffer belongs to the main thread's handle and outlives a restarted thread, so counters
 * keep counting across restarts, as Prometheus expects of a counter within one process.
 */

/** Query types counted by name; any other is counted as `other` (bounded label values). */
export const DNS_QTYPES = [
  'A',
  'NS',
  'CNAME',
  'SOA',
  'MX',
  'TXT',
  'AAAA',
  'IXFR',
  'AXFR',
  'ANY',
  'other',
] as const;
const QTYPE_CODES = [1, 2, 5, 6, 15, 16, 28, 251, 252, 255];
/** Response codes of the header (RFC 1035 §4.1.1, RFC 6895 §2.3); any other is `other`. */
export const DNS_RCODES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'other',
] as const;
export const DNS_TRANSPORTS = ['udp', 'tcp'] as const;

const OTHER_QTYPE = DNS_QTYPES.length - 1;
const OTHER_RCODE = DNS_RCODES.length - 1;
/** Query type code (0–255) to its column; 256 and above are `other`. */
const QTYPE_INDEX = new Uint8Array(256).fill(OTHER_QTYPE);
QTYPE_CODES.forEach((code, i) => {
  QTYPE_INDEX[code] = i;
});

const QUERY_SLOTS = DNS_TRANSPORTS.length * DNS_QTYPES.length * DNS_RCODES.length;
/** Slots after the query matrix. */
const RATE_LIMIT_DROPPED = QUERY_SLOTS;
const RATE_LIMIT_SLIPPED = QUERY_SLOTS + 1;
const TCP_ACCEPTED = QUERY_SLOTS + 2;
const TCP_REFUSED = QUERY_SLOTS + 3;
const TCP_OPEN = QUERY_SLOTS + 4;
const SLOTS = QUERY_SLOTS + 5;

/** A fresh shared buffer for {@link DnsCounters}: made by the main thread, passed in `workerData`. */
export function dnsCounterBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * Float64Array.BYTES_PER_ELEMENT);
}

/** The writer's side (the responder) and the reader's (the metrics), over one buffer. */
export class DnsCounters {
  private readonly slots: Float64Array;

  constructor(buffer: SharedArrayBuffer = dnsCounterBuffer()) {
    if (buffer.byteLength !== SLOTS * Float64Array.BYTES_PER_ELEMENT)
      throw new RangeError(`a DNS counter buffer is ${SLOTS * 8} bytes, got ${buffer.byteLength}`);
    this.slots = new Float64Array(buffer);
  }

  /**
   * Count one answered query: its type read from the question (RFC 1035 §4.1.2, after the
   * name's labels), its rcode from the reply's header (low 4 bits of byte 3).
   */
  answered(transport: 0 | 1, query: Uint8Array, reply: Uint8Array): void {
    let i = 12;
    // The question's name: labels up to the root; a pointer (0xC0) is not valid there but ends it.
    while (i < query.length) {
      const length = query[i]!;
      if (length === 0 || length >= 0xc0) break;
      i += length + 1;
    }
    const code = i + 2 < query.length ? (query[i + 1]! << 8) | query[i + 2]! : 256;
    const rcode = reply.length > 3 ? reply[3]! & 0x0f : OTHER_RCODE;
    const qtype = code < 256 ? QTYPE_INDEX[code]! : OTHER_QTYPE;
    this.slots[
      (transport * DNS_QTYPES.length + qtype) * DNS_RCODES.length +
        (rcode < OTHER_RCODE ? rcode : OTHER_RCODE)
    ]!++;
  }

  /** A UDP answer the rate limiter dropped, or sent truncated (`slip`) instead. */
  rateLimited(decision: 'drop' | 'slip'): void {
    this.slots[decision === 'drop' ? RATE_LIMIT_DROPPED : RATE_LIMIT_SLIPPED]!++;
  }

  /** A TCP connection admitted (`true`) or refused by the connection limits. */
  tcpConnection(admitted: boolean): void {
    this.slots[admitted ? TCP_ACCEPTED : TCP_REFUSED]!++;
  }

  /** TCP connections held now, set by the responder as they open and close. */
  set tcpOpen(count: number) {
    this.slots[TCP_OPEN] = count;
  }

  /** Read for a scrape. */
  snapshot(): {
    queries: { transport: string; qtype: string; rcode: string; count: number }[];
    rateLimitDropped: number;
    rateLimitSlipped: number;
    tcpAccepted: number;
    tcpRefused: number;
    tcpOpen: number;
  } {
    const s = this.slots;
    const queries = [];
    for (let t = 0; t < DNS_TRANSPORTS.length; t++)
      for (let q = 0; q < DNS_QTYPES.length; q++)
        for (let r = 0; r < DNS_RCODES.length; r++) {
          const count = s[(t * DNS_QTYPES.length + q) * DNS_RCODES.length + r]!;
          // a series appears once it has happened: the matrix is 154 mostly empty cells
          if (count > 0)
            queries.push({
              transport: DNS_TRANSPORTS[t]!,
              qtype: DNS_QTYPES[q]!,
              rcode: DNS_RCODES[r]!,
              count,
            });
        }
    return {
      queries,
      rateLimitDropped: s[RATE_LIMIT_DROPPED]!,
      rateLimitSlipped: s[RATE_LIMIT_SLIPPED]!,
      tcpAccepted: s[TCP_ACCEPTED]!,
      tcpRefused: s[TCP_REFUSED]!,
      tcpOpen: s[TCP_OPEN]!,
    };
  }
}
