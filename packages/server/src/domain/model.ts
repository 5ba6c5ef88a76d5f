import type { DomainType } from './domain-type.js';

/** The two states of the spec, for a domain and for each of its records. */
export type VerificationStatus = 'pending' | 'verified';

/** The records we ask a customer to publish: three DKIM CNAMEs, then one DMARC TXT. */
export type RecordKind = 'dkim' | 'dmarc';

/** A DNS record of a registration as the store keeps it. */
export interface StoredRecord {
  kind: RecordKind;
  /** Position in the response: 0–2 DKIM, 3 DMARC. */
  position: number;
  /** The DKIM selector token; `null` for DMARC. */
  token: string | null;
  status: VerificationStatus;
}

/** A registration as the store keeps it. */
export interface StoredDomain {
  id: string;
  accountId: string;
  /** ASCII (punycode) form, lowercase, no trailing dot. */
  name: string;
  type: DomainType;
  status: VerificationStatus;
  createdAt: number;
  records: StoredRecord[];
}
