/**
 * The DNS providers a customer's zone may be hosted at, and what each provider's own
 * documentation says about entering records there.
 *
 * This is data, not logic: `identifyProviders` (in `provider-detection.ts`) picks the
 * entries a zone's NS names belong to, and the setup instructions use each entry's hints to
 * phrase the records the customer must add (the usual failures are a host field that appends the
 * zone a second time, hand-added or missing TXT quotes, and a proxied CNAME).
 *
 * Rules for editing:
 * - Every hint is a fact stated by the provider's own documentation, carrying the `source`
 *   URL of the page that states it. Where the docs are silent, or the page could not be
 *   read, leave the hint out: a missing hint makes the instructions generic, a guessed one
 *   makes them wrong.
 * - To add a provider, append an entry; `id` is a stable key (it may be stored), so never
 *   rename one. An entry that takes over another's name servers lists the old id in
 *   `formerIds`, so what was stored under it still names the entry.
 *
 * @module
 */

/** What every documented fact carries: where the provider says it. */
export interface DocumentedFact {
  /** `https://` URL of the provider's documentation page that states the fact. */
  readonly source: string;
  /** The documented behaviour in one or two plain sentences, for people and for UI copy. */
  readonly note: string;
}

/**
 * How the provider's record form takes the record's name ("Host", "Name", "Record name").
 * Each property is set only when the source states it.
 */
export interface HostFieldHint extends DocumentedFact {
  /**
   * `'relative'`: the field takes the name relative to the zone (`selector._domainkey`);
   * `'fqdn'`: it takes the full name (`selector._domainkey.example.com`).
   */
  readonly form?: 'relative' | 'fqdn';
  /**
   * `true` when the provider appends the zone to whatever is typed, so pasting the full name
   * creates `x.example.com.example.com` — the instructions must then give the relative name.
   */
  readonly appendsZone?: boolean;
  /** What to enter for a record at the zone apex: `'@'`, or `''` for "leave the field empty". */
  readonly apex?: string;
}

/** How the provider wants TXT values entered. Each property is set only when the source states it. */
export interface TxtQuotingHint extends DocumentedFact {
  /**
   * `'added-for-you'`: paste the value without quotes, the provider adds them;
   * `'enter-with-quotes'`: the value must be typed inside double quotes.
   */
  readonly quotes?: 'added-for-you' | 'enter-with-quotes';
  /** `true` when the provider splits a long value into 255-character strings itself. */
  readonly splitsLongValues?: boolean;
}

/** A limit on the length of a TXT value in the provider's form (long DKIM keys hit it). */
export interface TxtLengthHint extends DocumentedFact {
  /** The longest value the form accepts, in characters, when the source gives a number. */
  readonly maxChars?: number;
}

/**
 * For providers that can proxy records (Cloudflare): the setting a verification or DKIM
 * CNAME must have, because a proxied CNAME answers with the proxy's addresses instead of
 * the CNAME and the record never verifies.
 */
export interface CnameProxyHint extends DocumentedFact {
  /** The label of the required setting as the provider's UI shows it, e.g. `DNS only`. */
  readonly requiredSetting: string;
}

/**
 * How the provider treats a CNAME *target* typed without a trailing dot — some append the
 * zone, turning `dkim.example.net` into `dkim.example.net.example.com`.
 */
export interface CnameTargetHint extends DocumentedFact {
  /** `true` when a target without a trailing dot gets the zone appended. */
  readonly appendsZoneWithoutTrailingDot: boolean;
}

/** The TTL choices the provider offers. Each property is set only when the source states it. */
export interface TtlHint extends DocumentedFact {
  /** Seconds behind the provider's "Auto"/"Automatic" choice, when documented. */
  readonly autoSeconds?: number;
  /** The provider's default TTL in seconds, when documented. */
  readonly defaultSeconds?: number;
  /** The shortest TTL the provider accepts, in seconds. */
  readonly minSeconds?: number;
  /** The longest TTL the provider accepts, in seconds. */
  readonly maxSeconds?: number;
}

/** What a provider's documentation says about entering records; every field is optional. */
export interface DnsProviderHints {
  /** How the host/name field works. */
  readonly hostField?: HostFieldHint;
  /** How TXT values are quoted. */
  readonly txtQuoting?: TxtQuotingHint;
  /** How long a TXT value the form accepts. */
  readonly txtLength?: TxtLengthHint;
  /** The proxy setting CNAMEs need (Cloudflare). */
  readonly cnameProxy?: CnameProxyHint;
  /** Whether CNAME targets need a trailing dot. */
  readonly cnameTarget?: CnameTargetHint;
  /** The TTL choices. */
  readonly ttl?: TtlHint;
}

/** One DNS provider: how to recognise its name servers and how its record form behaves. */
export interface DnsProvider {
  /** Stable kebab-case key (`cloudflare`, `route53`); may be stored, so never renamed. */
  readonly id: string;
  /**
   * Ids that named these name servers before this entry did (stored rows and queued webhook
   * events may hold them): `providerById` resolves them to this entry.
   */
  readonly formerIds?: readonly string[];
  /** Display name, as the provider spells it. */
  readonly name: string;
  /**
   * Name server host-name patterns that identify the provider, matched on whole labels
   * against the end of an NS name (see `nameserverMatches` in `provider-detection.ts`):
   * `ns.cloudflare.com` matches `ada.ns.cloudflare.com`. A `*` stands for any characters
   * within one label (`awsdns-*.com` matches `ns-1.awsdns-45.com`).
   */
  readonly nameservers: readonly string[];
  /** The provider's general "add a DNS record" page, when found. */
  readonly docs?: string;
  /** Documented facts about entering records. */
  readonly hints: DnsProviderHints;
}

/**
 * The known DNS providers, in matching priority order (the first entry wins a tie).
 *
 * Name server patterns were checked against the providers' documentation where it lists
 * them (Route 53, Azure, OVHcloud) and otherwise against NS names seen in public zones.
 */
export const DNS_PROVIDERS: readonly DnsProvider[] = [
  {
    id: 'cloudflare',
    name: 'Cloudflare',
    // Zones get two names like `ada.ns.cloudflare.com`.
    nameservers: ['ns.cloudflare.com'],
    docs: 'https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/',
    hints: {
      hostField: {
        form: 'relative',
        apex: '@',
        note: 'The Name field takes a subdomain or the zone apex (@).',
        source: 'https://developers.cloudflare.com/dns/manage-dns-records/reference/dns-record-types/',
      },
      txtQuoting: {
        quotes: 'added-for-you',
        note:
          'TXT content saved without quotes gets double quotes added automatically; inconsistent ' +
          'quotation marks fail validation.',
        source: 'https://developers.cloudflare.com/dns/manage-dns-records/reference/dns-record-types/',
      },
      txtLength: {
        maxChars: 2048,
        note: 'The Content of each TXT record must be 2,048 characters or less.',
        source: 'https://developers.cloudflare.com/dns/manage-dns-records/reference/dns-record-types/',
      },
      cnameProxy: {
        requiredSetting: 'DNS only',
        note:
          'A CNAME used to verify a domain for an external service must have its proxy status set ' +
          'to DNS only (grey cloud), not Proxied.',
        source:
          'https://developers.cloudflare.com/dns/manage-dns-records/troubleshooting/cname-domain-verification/',
      },
      ttl: {
        autoSeconds: 300,
        minSeconds: 60,
        maxSeconds: 86400,
        note:
          'Proxied records have TTL Auto (300 seconds, not editable). DNS-only records take a TTL ' +
          'from 60 seconds (30 on Enterprise) to 1 day.',
        source: 'https://developers.cloudflare.com/dns/manage-dns-records/reference/ttl/',
      },
    },
  },
  {
    id: 'route53',
    name: 'Amazon Route 53',
    // Documented format: ns-2048.awsdns-64.com, .net, .org and .co.uk.
    nameservers: ['awsdns-*.com', 'awsdns-*.net', 'awsdns-*.org', 'awsdns-*.co.uk'],
    docs: 'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-creating.html',
    hints: {
      hostField: {
        apex: '',
        note:
          'Record name: the domain or subdomain name; the default is the hosted zone name. For a ' +
          'record named like the hosted zone, enter nothing (not @).',
        source:
          'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-values-shared.html',
      },
      txtQuoting: {
        quotes: 'enter-with-quotes',
        note:
          'Enclose TXT text in double quotation marks. A value over 255 characters must be broken ' +
          'into strings of at most 255 characters, each in its own quotes, all on one line.',
        source:
          'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/ResourceRecordTypes.html#TXTFormat',
      },
      ttl: {
        note:
          'TTL is entered in seconds; when changing a record already in use, AWS recommends a short ' +
          'value such as 300 seconds first.',
        source:
          'https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/resource-record-sets-values-basic.html',
      },
    },
  },
  {
    id: 'godaddy',
    name: 'GoDaddy',
    // nsNN.domaincontrol.com
    nameservers: ['domaincontrol.com'],
    docs: 'https://www.godaddy.com/help/add-a-txt-record-19232',
    hints: {
      // Read on the Polish locale of GoDaddy's "Add a TXT record" article (19232).
      hostField: {
        form: 'relative',
        apex: '@',
        note: 'Name: the host name or prefix of the record, without the domain name; @ for the root domain.',
        source: 'https://www.godaddy.com/help/add-a-txt-record-19232',
      },
      txtLength: {
        maxChars: 1024,
        note: 'A TXT value may be up to 1,024 ASCII characters.',
        source: 'https://www.godaddy.com/help/add-a-txt-record-19232',
      },
      ttl: {
        defaultSeconds: 3600,
        note: 'The default TTL is 1 hour.',
        source: 'https://www.godaddy.com/help/add-a-txt-record-19232',
      },
    },
  },
  {
    id: 'namecheap',
    name: 'Namecheap',
    // BasicDNS dns1/dns2.registrar-servers.com; PremiumDNS shares the domain.
    nameservers: ['registrar-servers.com'],
    docs: 'https://namecheap.com/support/knowledgebase/article.aspx/9646/10/how-can-i-set-up-a-cname-record-for-my-domain',
    hints: {
      hostField: {
        form: 'relative',
        appendsZone: true,
        note:
          'Namecheap adds the domain name to the Host value automatically: enter mysubdomain, not ' +
          'mysubdomain.domain.tld.',
        source:
          'https://namecheap.com/support/knowledgebase/article.aspx/9646/10/how-can-i-set-up-a-cname-record-for-my-domain',
      },
    },
  },
  {
    id: 'google-cloud-dns',
    name: 'Google Cloud DNS',
    // ns-cloud-a1.googledomains.com … ns-cloud-e4. Zones moved from Google Domains to
    // Squarespace kept these names, so such a zone is reported as Google Cloud DNS too.
    nameservers: ['ns-cloud-*.googledomains.com'],
    docs: 'https://cloud.google.com/dns/records/',
    hints: {},
  },
  {
    id: 'azure',
    name: 'Azure DNS',
    // ns1-01.azure-dns.com, ns2-01.azure-dns.net, ns3-01.azure-dns.org, ns4-01.azure-dns.info
    nameservers: ['azure-dns.com', 'azure-dns.net', 'azure-dns.org', 'azure-dns.info'],
    docs: 'https://learn.microsoft.com/en-us/azure/dns/dns-operations-recordsets-portal',
    hints: {
      hostField: {
        form: 'relative',
        apex: '@',
        note: 'Record set names are relative to the zone (www); the zone apex is @.',
        source: 'https://learn.microsoft.com/en-us/azure/dns/dns-zones-records',
      },
      txtQuoting: {
        splitsLongValues: true,
        note:
          'In the portal, PowerShell or CLI, enter a TXT value as a single string per record; Azure ' +
          'divides it into 255-character segments when needed.',
        source: 'https://learn.microsoft.com/en-us/azure/dns/dns-zones-records',
      },
      ttl: {
        minSeconds: 1,
        maxSeconds: 2147483647,
        note: 'TTL is set per record set, to any value from 1 to 2,147,483,647 seconds.',
        source: 'https://learn.microsoft.com/en-us/azure/dns/dns-zones-records',
      },
    },
  },
  {
    id: 'digitalocean',
    name: 'DigitalOcean',
    // ns1/ns2/ns3.digitalocean.com
    nameservers: ['digitalocean.com'],
    hints: {},
  },
  {
    id: 'ovh',
    name: 'OVHcloud',
    // dnsXX.ovh.net / nsXX.ovh.net, and dns200/ns200.anycast.me with the DNS Anycast option.
    nameservers: ['ovh.net', 'anycast.me'],
    docs: 'https://github.com/ovh/docs/blob/HEAD/pages/web_cloud/domains/dns_zone_edit/guide.en-gb.md',
    hints: {
      txtLength: {
        maxChars: 255,
        note:
          'The record assistant limits a TXT record to 255 characters; the "Change in text format" ' +
          'zone editor has no such limit.',
        source: 'https://github.com/ovh/docs/blob/HEAD/pages/web_cloud/domains/dns_zone_edit/guide.en-gb.md',
      },
      cnameTarget: {
        appendsZoneWithoutTrailingDot: true,
        note:
          'End a host-name target with a dot (mydomain.ovh.), otherwise the domain name is added to ' +
          'the end of the target.',
        source: 'https://github.com/ovh/docs/blob/HEAD/pages/web_cloud/domains/dns_zone_edit/guide.en-gb.md',
      },
    },
  },
  {
    id: 'gandi',
    name: 'Gandi',
    // LiveDNS ns-NNN-a/b/c.gandi.net; older zones a/b/c.dns.gandi.net.
    nameservers: ['gandi.net'],
    hints: {},
  },
  {
    id: 'hetzner',
    name: 'Hetzner',
    // DNS Console / Cloud: hydrogen.ns.hetzner.com, oxygen.ns.hetzner.com, helium.ns.hetzner.de.
    // konsoleH / Robot: ns1.your-server.de, ns.second-ns.com, ns3.second-ns.de.
    nameservers: ['ns.hetzner.com', 'ns.hetzner.de', 'your-server.de', 'second-ns.com', 'second-ns.de'],
    hints: {
      cnameTarget: {
        appendsZoneWithoutTrailingDot: true,
        note:
          'konsoleH DNS administration: a CNAME target that does not end in a dot gets the domain ' +
          'name appended (mail.isp.com becomes mail.isp.com.mydomain.com).',
        source: 'https://wiki.hetzner.de/index.php/KonsoleH:DNS-Verwaltung/en',
      },
    },
  },
  {
    id: 'ionos',
    name: 'IONOS',
    // nsNNNN.ui-dns.com / .de / .org / .biz
    nameservers: ['ui-dns.com', 'ui-dns.de', 'ui-dns.org', 'ui-dns.biz'],
    hints: {},
  },
  {
    id: 'porkbun',
    name: 'Porkbun',
    // curitiba, fortaleza, maceio, salvador .ns.porkbun.com
    nameservers: ['ns.porkbun.com'],
    hints: {},
  },
  {
    id: 'vercel',
    name: 'Vercel',
    // ns1/ns2.vercel-dns.com
    nameservers: ['vercel-dns.com'],
    docs: 'https://vercel.com/docs/domains/managing-dns-records',
    hints: {},
  },
  {
    id: 'ns1',
    formerIds: ['netlify'],
    // Netlify DNS hands its customers NS1's names (dns1.p03.nsone.net …), the same names NS1
    // gives its own customers: NS names cannot tell the two apart, and nothing else we read
    // can, so there is one entry, named for both, and the hints are NS1's. (It was `netlify`
    // until issue 36, which hid NS1 from NS1's own customers.)
    name: 'IBM NS1 Connect (also used by Netlify DNS)',
    // Managed DNS network: dns1–dns4.p01–p10.nsone.net; dedicated networks have other names.
    // https://www.ibm.com/docs/en/SSSYGZ/resource_management/nameserver_assignments.html
    nameservers: ['nsone.net'],
    docs: 'https://help.ns1.com/hc/en-us/articles/360020258073-Creating-a-DNS-record',
    hints: {
      hostField: {
        form: 'relative',
        apex: '',
        note: 'Specify a name (the subdomain) for the record, or leave the field blank for a root-level record.',
        source: 'https://help.ns1.com/hc/en-us/articles/360020258073-Creating-a-DNS-record',
      },
      ttl: {
        defaultSeconds: 3600,
        note: 'The TTL is given in seconds; the default is 3,600 seconds.',
        source: 'https://help.ns1.com/hc/en-us/articles/360020258073-Creating-a-DNS-record',
      },
    },
  },
];
