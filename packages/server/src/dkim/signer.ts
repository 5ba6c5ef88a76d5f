/**
 * Signing with hosted keys: find the registration, refuse it unless verified, pick the active
 * selector, open its private key and sign. The adapter between the store and the pure signer.
 *
 * The active selector is the one rotation made `active` (see `rotation-plan.ts`). When it cannot
 * sign (its key revoked, or its CNAME definitively gone: a verified record in its grace period,
 * for which receivers would get NXDOMAIN) signing uses a `next` key, then a retired one still
 * published, whose CNAMEs the customer already has: the reason there are three. Rotation then
 * makes the next one active for good.
 */
import type { KeyObject } from 'node:crypto';
import { normalizeDomainName } from '../domain/domain-name.js';
import type { DkimKeyStore, SigningDomain } from '../store/dkim-key-store.js';
import { DkimError } from './errors.js';
import { privateKeyObject } from './key-pair.js';
import { open, SecretBoxError } from './secret-box.js';
import { signMessage, UnsignableMessageError } from './sign.js';

export interface SignRequest {
  /** The registered domain (`d=`). */
  domain: string;
  /** The account whose registration to use; required when several accounts registered the name. */
  accountId?: string;
}

export interface SignResult {
  /** The message with its DKIM-Signature field first, CRLF line endings. */
  message: Buffer;
  domain: string;
  selector: string;
}

/**
 * Opened keys kept for the next message of the same domain: opening one (decrypting it, then
 * OpenSSL parsing the PKCS#8) took 1.1 ms of the 2.8 ms a signature cost. Bounded, least
 * recently used out first; an entry is used only while its encrypted bytes are the stored ones.
 */
const OPENED_KEYS = 1_000;

export class DkimSigner {
  private readonly opened = new Map<string, { sealed: string; key: KeyObject }>();

  constructor(
    private readonly options: {
      /** Where registrations are read (the sender reads them once per turn for many messages). */
      keys: Pick<DkimKeyStore, 'signingDomains'>;
      secretKey: Buffer;
      /** Seconds since the epoch, for `t=`. */
      now?: () => number;
    },
  ) {}

  /** Sign `message` for a verified domain; throws {@link DkimError} with a precise code otherwise. */
  async sign(message: Buffer | string, request: SignRequest): Promise<SignResult> {
    const { domain, selector } = await this.prepare(request);
    const privateKey = this.open(selector.key!.token, selector.key!.privateKeyEnc);
    try {
      const signed = signMessage(message, {
        domain: domain.name,
        selector: selector.token,
        privateKey,
        timestamp: (this.options.now ?? (() => Math.floor(Date.now() / 1000)))(),
      });
      return { message: signed, domain: domain.name, selector: selector.token };
    } catch (error) {
      if (error instanceof UnsignableMessageError || error instanceof RangeError) {
        throw new DkimError('DKIM_MESSAGE_INVALID', `cannot sign: ${error.message}`);
      }
      throw error;
    }
  }

  /** The selector's private key, opened (or as opened for an earlier message). */
  private open(token: string, sealed: string): KeyObject {
    const kept = this.opened.get(token);
    if (kept?.sealed === sealed) {
      this.opened.delete(token);
      this.opened.set(token, kept);
      return kept.key;
    }
    let pkcs8: Buffer;
    try {
      pkcs8 = open(this.options.secretKey, sealed, token);
    } catch (error) {
      if (error instanceof SecretBoxError) throw new DkimError('DKIM_KEY_UNREADABLE', error.message);
      throw error;
    }
    try {
      const key = privateKeyObject(pkcs8);
      this.opened.delete(token);
      this.opened.set(token, { sealed, key });
      if (this.opened.size > OPENED_KEYS) this.opened.delete(this.opened.keys().next().value!);
      return key;
    } finally {
      pkcs8.fill(0);
    }
  }

  /**
   * The registration and the selector a signature would use, or the precise reason there is
   * none (not registered, not verified, key not ready, all revoked). Lets a caller refuse
   * before reading a message.
   */
  async prepare(
    request: SignRequest,
  ): Promise<{ domain: SigningDomain; selector: SigningDomain['selectors'][number] }> {
    const domain = await this.findDomain(request);
    if (domain.status !== 'verified') {
      throw new DkimError(
        'DKIM_DOMAIN_NOT_VERIFIED',
        `${domain.name} is not verified: publish its three DKIM CNAME records and wait for its status to be "verified"`,
      );
    }
    return { domain, selector: activeSelector(domain) };
  }

  /** The registration `request` names, or a precise error. */
  async findDomain(request: SignRequest): Promise<SigningDomain> {
    const name = normalizeDomainName(request.domain);
    if (!name.ok) throw new DkimError('DKIM_DOMAIN_INVALID', name.message);
    const found = await this.options.keys.signingDomains(name.name, request.accountId);
    if (found.length === 0) {
      const whose = request.accountId === undefined ? '' : ` for account ${request.accountId}`;
      throw new DkimError('DKIM_DOMAIN_NOT_REGISTERED', `${name.name} is not registered${whose}`);
    }
    if (found.length > 1) {
      throw new DkimError(
        'DKIM_DOMAIN_AMBIGUOUS',
        `${name.name} is registered by ${found.length} accounts (${found.map((d) => d.accountId).join(', ')}); name one with --account`,
      );
    }
    return found[0]!;
  }
}

/** Whether receivers can reach this selector's key: its CNAME verified and not seen missing since. */
export const inCustomerDns = (s: SigningDomain['selectors'][number]): boolean =>
  s.status === 'verified' && s.missingSince === null;

/** Rotation's preference when the active selector cannot sign: a next key, then a retired one. */
const FALLBACK_ORDER = { active: 0, next: 1, retired: 2 } as const;

/** The selector signatures use (see the module comment). */
export function activeSelector(domain: SigningDomain): SigningDomain['selectors'][number] {
  const usable = domain.selectors
    .filter((s) => s.key?.revokedAt == null)
    .sort(
      (a, b) =>
        (a.keyState === null ? 3 : FALLBACK_ORDER[a.keyState]) -
          (b.keyState === null ? 3 : FALLBACK_ORDER[b.keyState]) || a.position - b.position,
    );
  const selector = usable.find((s) => s.key !== undefined && inCustomerDns(s)) ?? usable[0];
  if (selector === undefined) {
    throw new DkimError('DKIM_NO_ACTIVE_KEY', `every DKIM selector of ${domain.name} is revoked`);
  }
  if (selector.key === undefined) {
    throw new DkimError(
      'DKIM_KEY_NOT_READY',
      `the key of selector ${selector.token} of ${domain.name} is still being generated; retry in a few seconds`,
    );
  }
  return selector;
}
