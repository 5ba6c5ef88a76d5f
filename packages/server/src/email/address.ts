/**
 * Mail addresses as the sending API takes them (`"Ann <ann@mail.example.com>"` or a bare
 * address): parsed with nodemailer's address parser, then held to what MTAs accept (a dot-atom
 * local part of at most 64 octets, UTF-8 allowed as RFC 6531 does; a domain name as
 * registration takes it, IDNs as A-labels).
 * Anything else is refused with the field's name, never passed on to an SMTP conversation.
 */
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { normalizeDomainName } from '../domain/domain-name.js';

export interface MailAddress {
  /** The display name, or `''`. */
  name: string;
  /** `local@domain`, the domain in lower case (A-labels for IDNs). */
  address: string;
  domain: string;
}

export type ParsedAddress = { ok: true; value: MailAddress } | { ok: false; message: string };

/**
 * RFC 5322 `atext` runs joined by single dots, with RFC 6531's UTF-8 (any non-ASCII character
 * but controls, format characters and spaces): `üser@…` is delivered where the MX offers
 * SMTPUTF8, and bounces with 5.6.7 where it does not (`smtp-sessions.ts`).
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\p{ASCII}\\p{C}\\p{Z}]";
const DOT_ATOM = new RegExp(`^(?:${ATEXT})+(?:\\.(?:${ATEXT})+)*$`, 'u');
/** In octets (RFC 5321 §4.5.3.1.1), UTF-8 counted as sent. */
const MAX_LOCAL_PART = 64;
/** RFC 5321 §4.5.3.1.3: a path of at most 256 octets, so an address of at most 254. */
const MAX_ADDRESS = 254;
const MAX_NAME = 200;

export function parseAddress(input: string, field: string): ParsedAddress {
  // Header injection: a line break would end the header the address is written into.
  if (/[\r\n\0]/.test(input)) return { ok: false, message: `${field} must not contain line breaks` };
  const parsed = addressparser(input, { flatten: true });
  if (parsed.length !== 1 || !parsed[0]?.address) {
    return {
      ok: false,
      message: `${field} must be one address such as "Ann <ann@example.com>"; got ${JSON.stringify(input.slice(0, 100))}`,
    };
  }
  const { name, address } = parsed[0];
  const at = address.lastIndexOf('@');
  // One spelling of each non-ASCII address (RFC 6531 §3.3 asks for NFC).
  const local = address.slice(0, at).normalize('NFC');
  if (at <= 0 || !DOT_ATOM.test(local) || Buffer.byteLength(local) > MAX_LOCAL_PART) {
    return {
      ok: false,
      message: `${field}: ${JSON.stringify(address.slice(0, 100))} is not an address we can send to`,
    };
  }
  const domain = normalizeDomainName(address.slice(at + 1));
  if (!domain.ok) return { ok: false, message: `${field}: ${domain.message}` };
  const normalized = `${local}@${domain.name}`;
  if (normalized.length > MAX_ADDRESS)
    return { ok: false, message: `${field} is longer than ${MAX_ADDRESS} characters` };
  if (name.length > MAX_NAME)
    return { ok: false, message: `${field}: the name is longer than ${MAX_NAME} characters` };
  return { ok: true, value: { name, address: normalized, domain: domain.name } };
}

/** How an address is kept for suppression: the domain is case-insensitive, and so, in practice, is the local part. */
export const suppressionKey = (address: string): string => address.toLowerCase();
