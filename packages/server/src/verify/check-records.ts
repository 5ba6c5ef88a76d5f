/**
 * Check a registration's records in DNS: each DKIM CNAME must answer its expected target,
 * and `_dmarc.<domain>` must hold exactly one valid DMARC policy.
 */
import type { Observation } from '../domain/verification.js';
import { judgeDmarcRecords } from './dmarc.js';
import { classifyLookupError, type DnsResolve, describeLookupError } from './resolver.js';

/** What one record should be. */
export type ExpectedRecord = { kind: 'dkim'; fqdn: string; target: string } | { kind: 'dmarc'; fqdn: string };

/** Longest `found` value we keep: enough to recognise, never a whole zone's worth. */
const MAX_FOUND = 300;

const normalise = (name: string) => name.toLowerCase().replace(/\.$/, '');
const clip = (text: string) => (text.length > MAX_FOUND ? `${text.slice(0, MAX_FOUND)}…` : text);

/** Observe every expected record, concurrently. */
export function checkRecords(expected: ExpectedRecord[], resolve: DnsResolve): Promise<Observation[]> {
  return Promise.all(
    expected.map((record) =>
      record.kind === 'dkim' ? checkCname(record, resolve) : checkDmarc(record.fqdn, resolve),
    ),
  );
}

/** A DKIM record: a CNAME query for its name must answer its target (case and final dot aside). */
export async function checkCname(
  record: { fqdn: string; target: string },
  resolve: DnsResolve,
): Promise<Observation> {
  let answers: string[];
  try {
    answers = await resolve(record.fqdn, 'CNAME');
  } catch (error) {
    const failure = classifyLookupError(error);
    if (failure === 'nxdomain') {
      return {
        outcome: 'miss',
        reason: 'not_found',
        found: null,
        detail: `no record at ${record.fqdn}; add a CNAME to ${record.target}`,
      };
    }
    if (failure === 'nodata') return describeOtherType(record, resolve);
    return { outcome: 'error', detail: describeLookupError(error) };
  }
  const target = answers[0];
  if (target === undefined) {
    return {
      outcome: 'miss',
      reason: 'not_found',
      found: null,
      detail: `no CNAME at ${record.fqdn}; add one to ${record.target}`,
    };
  }
  if (normalise(target) === normalise(record.target)) return { outcome: 'match' };
  return {
    outcome: 'miss',
    reason: 'wrong_value',
    found: clip(target),
    detail: `the CNAME points to ${clip(target)}; it must point to ${record.target}`,
  };
}

/** The name exists without a CNAME: say what is there, if it is a TXT (a pasted key, say). */
async function describeOtherType(
  record: { fqdn: string; target: string },
  resolve: DnsResolve,
): Promise<Observation> {
  let found: string | null = null;
  try {
    const txt = await resolve(record.fqdn, 'TXT');
    if (txt.length > 0) found = clip(`TXT "${txt.map((chunks) => chunks.join('')).join('" "')}"`);
  } catch {
    // Only a description: the NODATA answer above is already definitive.
  }
  return {
    outcome: 'miss',
    reason: 'wrong_type',
    found,
    detail: `${record.fqdn} has ${found ? 'a TXT record' : 'records of another type'} but no CNAME; replace them with a CNAME to ${record.target}`,
  };
}

/** The DMARC record: TXT at `_dmarc.<domain>`, multi-string records joined (RFC 7489 §6.6.3). */
export async function checkDmarc(fqdn: string, resolve: DnsResolve): Promise<Observation> {
  let records: string[][];
  try {
    records = await resolve(fqdn, 'TXT');
  } catch (error) {
    const failure = classifyLookupError(error);
    if (failure === 'error') return { outcome: 'error', detail: describeLookupError(error) };
    records = [];
  }
  const verdict = judgeDmarcRecords(records.map((chunks) => chunks.join('')));
  if (verdict.valid) return { outcome: 'match' };
  const detail =
    verdict.reason === 'not_found' ? `no DMARC record at ${fqdn}; add the TXT record shown` : verdict.detail;
  return {
    outcome: 'miss',
    reason: verdict.reason,
    found: verdict.found === null ? null : clip(verdict.found),
    detail,
  };
}
