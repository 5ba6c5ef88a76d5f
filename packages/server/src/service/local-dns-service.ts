/**
 * Publishing a registration's records in the development local DNS, and removing them
 * (issue 40, `dns/local-dns.ts`): the user's one explicit action that stands for editing the
 * zone at a DNS provider. What is published is exactly the records the API lists for the
 * domain; the domain is checked at once afterwards, through the ordinary verification path,
 * so the answer (and the next status poll) says what DNS now shows.
 */
import type { LocalDns, LocalRecord } from '../dns/local-dns.js';
import { isLocalZone, LOCAL_TLD } from '../dns/local-dns.js';
import { ApiError } from '../errors.js';
import type { DomainView } from '../views.js';
import type { DomainService } from './domain-service.js';

/** What a publish or a removal answers. */
export interface LocalDnsView {
  domain: string;
  /** Where the local DNS answers: `127.0.0.1:5354`. */
  server: string;
  /** The domain's records the local DNS holds now. */
  records: LocalRecord[];
  /** The domain's status after the check that followed. */
  status: DomainView['status'];
}

export class LocalDnsService {
  constructor(
    private readonly options: {
      /** Absent in production mode and with `LOCAL_DNS_LISTEN=off`. */
      localDns: LocalDns | undefined;
      domains: DomainService;
    },
  ) {}

  /** `GET /api/public/domain/local-dns`: where the local DNS answers; `LOCAL_DNS_OFF` when it is off. */
  where(): { server: string } {
    return { server: serverOf(this.running()) };
  }

  /** `POST /api/public/domain/local-dns`: publish every record of `name`. */
  async publish(accountId: string, name: string): Promise<LocalDnsView> {
    const { localDns, domain } = await this.registration(accountId, name);
    await localDns.publish(
      domain.records[0]!.zone,
      domain.records.map((record) => ({
        fqdn: record.fqdn,
        type: record.type,
        // a TXT record's text is what is inside the quotes the API shows it in
        value: record.type === 'TXT' ? record.value.replace(/^"(.*)"$/, '$1') : record.value,
      })),
    );
    return this.answer(accountId, localDns, domain);
  }

  /**
   * `DELETE /api/public/domain/local-dns`: remove the records of `name` at `fqdns` (all of them
   * when absent), as deleting them at a DNS provider would.
   */
  async remove(accountId: string, name: string, fqdns?: string[]): Promise<LocalDnsView> {
    const { localDns, domain } = await this.registration(accountId, name);
    const own = new Set(domain.records.map((record) => record.fqdn));
    const asked = fqdns?.map((fqdn) => fqdn.toLowerCase().replace(/\.$/, ''));
    localDns.remove(
      domain.records[0]!.zone,
      (asked ?? [...own]).filter((fqdn) => own.has(fqdn)),
    );
    return this.answer(accountId, localDns, domain);
  }

  private running(): LocalDns {
    const localDns = this.options.localDns;
    if (localDns === undefined)
      throw new ApiError(
        'LOCAL_DNS_OFF',
        'the local DNS is off (production mode, or LOCAL_DNS_LISTEN=off): publish the records at the domain’s DNS provider',
      );
    return localDns;
  }

  private async registration(accountId: string, name: string) {
    const localDns = this.running();
    const domain = await this.options.domains.current(accountId, name);
    if (domain === undefined)
      throw new ApiError('LOCAL_DNS_DOMAIN_UNKNOWN', `${name} is not registered to this account`);
    const zone = domain.records[0]!.zone;
    if (!isLocalZone(zone))
      throw new ApiError(
        'LOCAL_DNS_NOT_TEST',
        `${domain.domain} is in the zone ${zone}, not under .${LOCAL_TLD}: the local DNS serves only names that can never be real; publish its records at its DNS provider`,
      );
    return { localDns, domain };
  }

  private async answer(accountId: string, localDns: LocalDns, domain: DomainView): Promise<LocalDnsView> {
    const checked = (await this.options.domains.current(accountId, domain.domain, true)) ?? domain;
    const own = new Set(domain.records.map((record) => record.fqdn));
    return {
      domain: domain.domain,
      server: serverOf(localDns),
      records: localDns.records(domain.records[0]!.zone).filter((record) => own.has(record.fqdn)),
      status: checked.status,
    };
  }
}

/** `127.0.0.1:5354`, `[::1]:5354`; empty before it listens. */
function serverOf(localDns: LocalDns): string {
  const address = localDns.address;
  if (address === undefined) return '';
  return `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
}
