/**
 * Where sandbox mail goes instead of a receiving server (issue 40, `email/sandbox.ts`): the
 * copy is kept in the capture inbox with the verdicts a receiver would reach, computed by
 * mailauth on the very bytes that would have left, and the attempt's outcome is the one the
 * recipient's address names.
 *
 * The sandbox's own domain signs with a key made in this process on first use (selector
 * `sandbox`) and has, for mailauth only, the records a domain set up with this service has: SPF
 * for the capture's address, the DKIM key, `p=reject` DMARC. So a message from
 * `onboarding@sandbox.test` shows what a customer's verified domain will show: DKIM and SPF
 * pass aligned, DMARC passes. A registered domain's message to a sandbox address is judged
 * against real DNS (`DNS_RESOLVERS`), as if it came from the first of `SENDING_IPS`; one in
 * the development local DNS, against what was published there.
 */
import { Resolver } from 'node:dns/promises';
import { generateDkimKeyPair, privateKeyObject } from '../dkim/key-pair.js';
import { signMessage } from '../dkim/sign.js';
import { lazy } from '../lazy.js';
import type { AttemptOutcome, ClaimedRecipient } from '../store/emails/types.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { DnsResolve } from '../verify/resolver.js';
import { classifyRefusal } from './bounce.js';
import {
  isSandboxDomain,
  SANDBOX_ACCEPT,
  SANDBOX_BOUNCE,
  SANDBOX_DOMAIN,
  SANDBOX_HOST,
  sandboxOutcome,
} from './sandbox.js';

const mailauth = lazy(() => import('mailauth'));

/** The types verification's resolver answers (mailauth asks TXT for DKIM, SPF and DMARC). */
const LOCAL_TYPES = new Set(['TXT', 'CNAME', 'A', 'AAAA']);

/** The selector of the sandbox domain's key. */
const SELECTOR = 'sandbox';
/** The address the capture "receives" from, for SPF. */
const CAPTURE_IP = '127.0.0.1';

/** mailauth's verdicts, condensed to what a person reads. */
export interface SandboxAuthentication {
  spf: { result: string; domain: string; ip: string };
  dkim: { result: string; domain: string; selector: string | null; aligned: boolean }[];
  dmarc: { result: string; domain: string; policy: string | null };
  /** The `Authentication-Results` field a receiver would add. */
  header: string;
}

export interface SandboxInboxOptions {
  store: SandboxStore;
  /** DNS servers for registered domains' records (`DNS_RESOLVERS`; the system's when empty). */
  resolvers: string[];
  dnsTimeoutMs: number;
  /** The address registered domains' mail is judged as coming from (`SENDING_IPS[0]`). */
  sendingIp: string | undefined;
  /** The HELO name the service gives (`SMTP_HELO_NAME`). */
  heloName: string;
  /**
   * The development local DNS's zones (`dns/local-dns.ts`) and verification's resolver, which
   * asks that server for them: a `.test` domain published there is judged by its records.
   */
  localZones?: { serves(name: string): boolean; resolve: DnsResolve; syncKeys(): Promise<void> };
}

export class SandboxInbox {
  private key: Promise<{ publicKey: string; privateKey: Buffer }> | undefined;
  private readonly dns: Resolver;

  constructor(private readonly options: SandboxInboxOptions) {
    this.dns = new Resolver({ timeout: options.dnsTimeoutMs, tries: 1 });
    if (options.resolvers.length > 0) this.dns.setServers(options.resolvers);
  }

  /** Whether mail to `address` stays here. */
  captures(address: string): boolean {
    return isSandboxDomain(address.slice(address.lastIndexOf('@') + 1).toLowerCase());
  }

  /** The message signed by the sandbox's own domain (`d=sandbox.test`). */
  async sign(message: string): Promise<Buffer> {
    const { privateKey } = await this.keyPair();
    return signMessage(message, {
      domain: SANDBOX_DOMAIN,
      selector: SELECTOR,
      privateKey: privateKeyObject(privateKey),
    });
  }

  /** Keep the copy with its verdicts; the outcome its address names (any other: delivered). */
  async capture(claim: ClaimedRecipient, signed: Buffer, envelopeFrom: string): Promise<AttemptOutcome> {
    const fromSandbox = isSandboxDomain(envelopeFrom.slice(envelopeFrom.lastIndexOf('@') + 1));
    const ip = fromSandbox ? CAPTURE_IP : (this.options.sendingIp ?? CAPTURE_IP);
    const { authenticate } = await mailauth();
    // the key that signed may be seconds old: the local DNS reads it before mailauth asks
    await this.options.localZones?.syncKeys();
    const result = await authenticate(signed, {
      ip,
      helo: this.options.heloName,
      sender: envelopeFrom,
      mta: SANDBOX_HOST,
      resolver: (name, type) => this.resolve(name, type),
    });
    const authentication: SandboxAuthentication = {
      spf: {
        result: result.spf ? result.spf.status.result : 'none',
        domain: result.spf ? result.spf.domain : '',
        ip,
      },
      dkim: result.dkim.results.map((r) => ({
        result: r.status.result,
        domain: r.signingDomain,
        selector: r.selector ?? null,
        aligned: Boolean(r.status.aligned),
      })),
      dmarc: {
        result: result.dmarc ? result.dmarc.status.result : 'none',
        domain: result.dmarc ? result.dmarc.domain : '',
        policy: result.dmarc ? result.dmarc.policy || null : null,
      },
      header: authenticationResults(result.headers),
    };
    await this.options.store.capture(claim.accountId, {
      id: claim.id,
      emailId: claim.emailId,
      address: claim.address,
      message: signed.toString('latin1'),
      authentication,
      capturedAt: Date.now(),
    });
    if (sandboxOutcome(claim.address) === 'bounced') {
      return {
        kind: 'bounced',
        bounce: classifyRefusal(SANDBOX_BOUNCE.code, SANDBOX_BOUNCE.text),
        ...SANDBOX_BOUNCE,
        mxHost: SANDBOX_HOST,
      };
    }
    return { kind: 'sent', delivered: true, ...SANDBOX_ACCEPT, mxHost: SANDBOX_HOST };
  }

  /** DNS as mailauth asks it: the sandbox domain's records from here, every other name from DNS. */
  private async resolve(name: string, type: string): Promise<string[] | string[][]> {
    const lower = name.toLowerCase().replace(/\.$/, '');
    const local = this.options.localZones;
    if (local?.serves(lower) && LOCAL_TYPES.has(type)) return local.resolve(lower, type as 'TXT');
    if (lower !== SANDBOX_DOMAIN && !lower.endsWith(`.${SANDBOX_DOMAIN}`))
      return this.dns.resolve(name, type) as Promise<string[] | string[][]>;
    const records = new Map<string, string>([
      [SANDBOX_DOMAIN, `v=spf1 ip4:${CAPTURE_IP} -all`],
      [`_dmarc.${SANDBOX_DOMAIN}`, 'v=DMARC1; p=reject'],
      [`${SELECTOR}._domainkey.${SANDBOX_DOMAIN}`, `v=DKIM1; k=rsa; p=${(await this.keyPair()).publicKey}`],
    ]);
    const text = records.get(lower);
    if (type === 'TXT' && text !== undefined) return [chunks(text)];
    throw Object.assign(new Error(`${type} ${name}: ${text === undefined ? 'ENOTFOUND' : 'ENODATA'}`), {
      code: text === undefined ? 'ENOTFOUND' : 'ENODATA',
    });
  }

  private keyPair() {
    this.key ??= generateDkimKeyPair();
    return this.key;
  }
}

/** The `Authentication-Results` field among the trace fields mailauth writes, unfolded. */
function authenticationResults(fields: string): string {
  const field = fields.split(/\r?\n(?![ \t])/).find((f) => /^Authentication-Results:/i.test(f)) ?? '';
  return field.replace(/\r?\n[ \t]+/g, ' ').trim();
}

/** A TXT record's text as DNS carries it: strings of at most 255 octets. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 255) out.push(text.slice(i, i + 255));
  return out;
}
