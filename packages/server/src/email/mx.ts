/**
 * Where mail for a domain goes (RFC 5321 §5.1), through the resolvers of `DNS_RESOLVERS`: its
 * MX hosts by preference (equal preferences in random order, as §5.1 asks); none, then the
 * domain itself (the implicit MX) if it has an address; a "null MX" (RFC 7505: one MX of `.`)
 * means the domain accepts no mail, a permanent failure.
 *
 * Every address meets the webhook guard's classifier (`net/address-guard.ts`): a recipient
 * domain chooses its MX, so without it any domain could point our SMTP client at loopback or
 * internal hosts (issue 33). Non-public addresses are dropped; a domain left with none is a
 * permanent failure that names the address. `SMTP_ALLOW_PRIVATE_MX` (tests, local development)
 * keeps them.
 */
import { Resolver } from 'node:dns/promises';
import { refuseAddress } from '../net/address-guard.js';
import { classifyLookupError, describeLookupError } from '../verify/resolver.js';

/** An MX host and its addresses, resolved through the same resolvers. */
export interface MailHost {
  host: string;
  addresses: string[];
}

/**
 * Where the mail goes, or why nowhere: `status` is the enhanced status code (RFC 3463) an MTA
 * gives such a failure, so that bounces are classified alike (`email/bounce.ts`).
 */
export type MailRoute =
  | { ok: true; hosts: MailHost[] }
  | { ok: false; permanent: boolean; status: string; reason: string };

export interface MxResolverOptions {
  servers: string[];
  timeoutMs: number;
  tries: number;
  /** `SMTP_ALLOW_PRIVATE_MX`: keep loopback, private and other non-public addresses. */
  allowPrivate?: boolean;
}

export type FindMailHosts = (domain: string) => Promise<MailRoute>;

export function createMailRouter(options: MxResolverOptions): FindMailHosts {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  return async (domain) => {
    let records: { exchange: string; priority: number }[];
    try {
      records = await resolver.resolveMx(domain);
    } catch (error) {
      const kind = classifyLookupError(error);
      if (kind === 'nxdomain')
        return { ok: false, permanent: true, status: '5.1.2', reason: `${domain} does not exist in DNS` };
      if (kind === 'error')
        return {
          ok: false,
          permanent: false,
          status: '4.4.3',
          reason: `MX of ${domain}: ${describeLookupError(error)}`,
        };
      records = [];
    }
    if (records.length === 1 && (records[0]!.exchange === '' || records[0]!.exchange === '.')) {
      return {
        ok: false,
        permanent: true,
        status: '5.1.10',
        reason: `${domain} publishes a null MX: it accepts no mail (RFC 7505)`,
      };
    }
    /** The first non-public address met, to name in the failure. */
    let refused: string | undefined;
    const addressesOf = async (host: string) => {
      const all = (
        await Promise.all([
          resolver.resolve4(host).catch(() => [] as string[]),
          resolver.resolve6(host).catch(() => [] as string[]),
        ])
      ).flat();
      if (options.allowPrivate) return all;
      return all.filter((address) => {
        const refusal = refuseAddress(address);
        if (refusal !== null) refused ??= `${host} at ${refusal}`;
        return refusal === null;
      });
    };
    const onlyPrivate = (): MailRoute => ({
      ok: false,
      permanent: true,
      // Our refusal, not the recipient's: not a reason to suppress the address.
      status: '5.4.4',
      reason: `mail for ${domain} would go to ${refused}; the service delivers only to public addresses`,
    });
    if (records.length === 0) {
      // The implicit MX: the domain itself, if it has an address.
      const addresses = await addressesOf(domain);
      if (addresses.length === 0) {
        if (refused !== undefined) return onlyPrivate();
        return {
          ok: false,
          permanent: true,
          status: '5.1.2',
          reason: `${domain} has neither MX nor address records`,
        };
      }
      return { ok: true, hosts: [{ host: domain, addresses }] };
    }
    const shuffled = records.map((r) => ({ ...r, tie: Math.random() }));
    shuffled.sort((a, b) => a.priority - b.priority || a.tie - b.tie);
    const hosts = await Promise.all(
      shuffled.map(async (r) => {
        const host = r.exchange.replace(/\.$/, '');
        return { host, addresses: await addressesOf(host) };
      }),
    );
    const reachable = hosts.filter((h) => h.addresses.length > 0);
    if (reachable.length === 0) {
      if (refused !== undefined) return onlyPrivate();
      return {
        ok: false,
        permanent: false,
        status: '4.4.4',
        reason: `no MX host of ${domain} has an address in DNS`,
      };
    }
    return { ok: true, hosts: reachable };
  };
}
