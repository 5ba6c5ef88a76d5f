/**
 * The shapes the services answer with (a domain result, its records, its history), written
 * once as TypeBox schemas: the HTTP layer validates and documents with them (`/openapi.json`),
 * and the services' view types are derived from them, so neither can drift from the other.
 * Layer-neutral, as `errors.ts` and `envelope.ts`: services and routes both import it.
 */
import { type Static, Type } from '@sinclair/typebox';
import { DOMAIN_TYPES } from './domain/domain-type.js';
import { CHECK_REASONS, KEY_STATES } from './domain/model.js';

export const VerificationStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('verified')], {
  $id: 'VerificationStatus',
  description: 'State of a domain or of one record.',
});

export const ProviderHintSchema = Type.Object(
  {
    topic: Type.Union(
      ['name', 'proxy', 'target', 'quotes', 'length', 'ttl'].map((t) => Type.Literal(t)),
      {
        description:
          'What the hint is about: `name` (the host field), `proxy` (Cloudflare’s proxy), `target` (a final dot on the CNAME target), `quotes` (TXT quoting), `length` (the longest TXT value the form takes), `ttl`.',
      },
    ),
    text: Type.String({
      description: 'One sentence of advice for entering the record at this DNS provider.',
    }),
    source: Type.String({
      format: 'uri',
      description: 'The provider’s own documentation page that states the fact behind `text`.',
    }),
    provider: Type.String({
      description:
        'The id of the provider whose record form the hint is about: one of the domain’s `providers`.',
    }),
  },
  { $id: 'ProviderHint', additionalProperties: false },
);

export const DomainConnectSchema = Type.Object(
  {
    supported: Type.Boolean({
      description: 'Whether the zone’s DNS provider can add the four records itself through Domain Connect.',
    }),
    providerName: Type.Union([Type.String(), Type.Null()], {
      description: 'The DNS provider as its Domain Connect settings name it; `null` when it offers none.',
    }),
    url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description:
        'When supported: the signed link that opens the provider’s consent page, which adds the records. Without `redirect_uri`; `GET /api/public/domain/setup-link` makes one with it. `null` otherwise.',
    }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'When not supported: why, ending in what to do instead (add the records by hand).',
    }),
  },
  { $id: 'DomainConnect', additionalProperties: false },
);

export const DnsProviderSchema = Type.Object(
  {
    id: Type.String({
      description:
        'Stable id: `cloudflare`, `route53`, `godaddy`, `namecheap`, `google-cloud-dns`, `azure`, `digitalocean`, `ovh`, `gandi`, `hetzner`, `ionos`, `porkbun`, `vercel`, `ns1` (the list may grow). `ns1` was `netlify` before: Netlify DNS serves zones from NS1’s name servers, which cannot tell the two apart.',
    }),
    name: Type.String({
      description:
        'The provider’s name, for people; it says when the name servers are shared with another service (`IBM NS1 Connect (also used by Netlify DNS)`).',
    }),
    docs: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'The provider’s page on adding DNS records, when known.',
    }),
  },
  { $id: 'DnsProvider', additionalProperties: false },
);

export const DkimSelectorSchema = Type.Object(
  {
    selector: Type.String({
      description: 'The selector (`s=` of signatures): the token of one of the three DKIM CNAMEs.',
    }),
    state: Type.Union([...KEY_STATES.map((s) => Type.Literal(s)), Type.Null()], {
      description:
        '`active`: signatures use this selector. `next`: its key is published and signing moves to it at the next rotation. `retired`: it signed before; its key stays published for mail in flight, then it gets a new key and becomes `next`. `null`: its first key is being made (seconds after registration).',
    }),
    keyCreatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When its current key was made (the key’s age); `null` before.',
    }),
    since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When it took its `state`; for `next`, when its key was seen served by every name server of the key zone (`null` until then: it cannot sign before).',
    }),
  },
  { $id: 'DkimSelector', additionalProperties: false },
);

export const DkimStatusSchema = Type.Object(
  {
    selectors: Type.Array(Type.Ref(DkimSelectorSchema), {
      description: 'The three selectors, in record order. Rotation moves the roles; the CNAMEs never change.',
    }),
    rotatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When signing last moved to another selector; `null` before the first rotation.',
    }),
    nextRotationAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When signing is planned to move to the `next` selector: the active key’s age reaching `DKIM_ROTATION_INTERVAL_DAYS` (90 by default), or sooner when asked for. `null` while the keys are being made, while a CNAME is not in the customer’s DNS, or with rotation turned off.',
    }),
    rotationRequestedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'A rotation asked for (`POST /api/public/domain/dkim/rotate`) and not done yet.',
    }),
  },
  { $id: 'DkimStatus', additionalProperties: false },
);

export const DnsRecordSchema = Type.Object(
  {
    name: Type.String({
      description:
        'Host name to publish, relative to `zone`, the zone the customer edits: `<token>._domainkey.mail` and `_dmarc.mail` for `mail.example.com` in `example.com`; `<token>._domainkey` and `_dmarc` for the apex `example.com`.',
    }),
    type: Type.Union([Type.Literal('CNAME'), Type.Literal('TXT')]),
    value: Type.String({
      description: 'CNAME: `<token>.dkim.<provider host>`. TXT: the quoted DMARC policy.',
    }),
    status: Type.Ref(VerificationStatusSchema),
    record: Type.String({
      description: 'CNAME: the selector token. TXT: the same quoted string as `value`.',
    }),
    ttl: Type.Literal('Auto'),
    fqdn: Type.String({
      description: 'The record’s fully qualified name, for DNS hosts that want it whole.',
    }),
    zone: Type.String({
      description:
        'The zone `name` is relative to: the registrable domain by the Public Suffix List (`example.com` for `mail.example.com`).',
    }),
    reason: Type.Union([...CHECK_REASONS.map((r) => Type.Literal(r)), Type.Null()], {
      description:
        'Why the last check did not find the record as expected: `not_found` (no such record), `wrong_type` (the name holds other record types), ' +
        '`wrong_value` (another target, or a DMARC record that is invalid or duplicated), `dns_error` (no definitive answer; the status is kept). `null` when it matched.',
    }),
    found: Type.Union([Type.String(), Type.Null()], {
      description: 'What DNS answered instead, when it answered something.',
    }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'What is wrong and what to do, in a sentence.',
    }),
    lastCheckedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When this record was last checked; `null` before the first check.',
    }),
    providerHints: Type.Array(Type.Ref(ProviderHintSchema), {
      description:
        'What each DNS provider serving the zone (`providers`) documents about entering this record there: the host field, quoting, the proxy, the TTL; each hint’s `provider` says whose, provider by provider in the order of `providers`. Empty when no provider is known or their documentation says nothing that applies. `name` stays relative to `zone` whatever the provider.',
    }),
  },
  { $id: 'DnsRecord', additionalProperties: false },
);

export const DomainResultSchema = Type.Object(
  {
    domain: Type.String({ description: 'The domain in its ASCII (punycode) form.' }),
    status: Type.Ref(VerificationStatusSchema),
    records: Type.Array(Type.Ref(DnsRecordSchema), {
      description:
        'Three DKIM CNAME records, then one DMARC TXT record; then, for a domain registered with `returnPath`, the return-path CNAME (`bounces.<domain>` to `return-path.dkim.<provider host>`), whose status the domain’s `status` does not wait for.',
    }),
    zoneConfirmed: Type.Boolean({
      description:
        'Whether DNS showed the zone that each record’s `zone` and `name` are relative to. The registration looks the zone up itself (waiting at most `STATUS_CHECK_WAIT_MS`), so a delegated subdomain (`mail.example.com` as its own zone) is named right from the first answer. `false`: DNS has not shown it yet (no answer in time, or no zone found): the names are relative to the registrable domain and may change at a later check; `fqdn` is right either way.',
    }),
    type: Type.Union(
      DOMAIN_TYPES.map((t) => Type.Literal(t)),
      { description: 'The domain type, in canonical spelling.' },
    ),
    lastCheckedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When DNS was last checked; `null` before the first check.',
    }),
    nextCheckAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When the background scheduler checks next; a status request re-checks sooner if the last check is a few seconds old. `null`: a domain pending for more than 30 days is checked only when its status is requested.',
    }),
    provider: Type.Union([Type.Ref(DnsProviderSchema), Type.Null()], {
      description:
        'The DNS provider hosting the domain’s zone, named from the zone’s NS records at the last check: when several serve it, the one most name servers belong to (the first of `providers`). `null` before the first check or when the name servers are not a provider we know.',
    }),
    providers: Type.Array(Type.Ref(DnsProviderSchema), {
      description:
        'Every known DNS provider serving the domain’s zone, the one with the most name servers first (a tie in the catalogue’s order), from the zone’s NS records at the last check; empty before the first check or when none is known. With more than one, the zone is served by several providers: enter the records at each of them (at the primary alone when the others copy the zone from it by zone transfer), or some resolvers will not find them.',
    }),
    domainConnect: Type.Union([Type.Ref(DomainConnectSchema), Type.Null()], {
      description:
        'Setting the domain up in one click through its DNS provider (Domain Connect, synchronous flow), as the last check found it; `null` before the first check or with `DOMAIN_CONNECT_ENABLED=false`.',
    }),
    dkim: Type.Ref(DkimStatusSchema, {
      description: 'The DKIM keys behind the three CNAMEs, which rotate by themselves.',
    }),
  },
  { $id: 'DomainResult', additionalProperties: false },
);

export const StatusEventSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    record: Type.Union([Type.String(), Type.Null()], {
      description: 'The record’s `fqdn`, or `null` for the domain’s own status.',
    }),
    from: Type.Ref(VerificationStatusSchema),
    to: Type.Ref(VerificationStatusSchema),
    reason: Type.Union([Type.String(), Type.Null()]),
    found: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'StatusEvent', additionalProperties: false },
);

export const DomainHistorySchema = Type.Object(
  {
    domain: Type.String(),
    events: Type.Array(Type.Ref(StatusEventSchema), { description: 'Newest first.' }),
  },
  { $id: 'DomainHistory', additionalProperties: false },
);

/** One DNS record of a domain result (the spec's "DNS record", plus `fqdn`, `zone` and the diagnosis). */
export type DnsRecordView = Static<typeof DnsRecordSchema>;

/** Where a domain's DKIM keys stand in rotation. */
export type DkimStatusView = Static<typeof DkimStatusSchema>;

/** The spec's Domain result. */
export type DomainView = Static<typeof DomainResultSchema>;

/** The status changes of one registration, as `history` returns them. */
export type DomainHistoryView = Static<typeof DomainHistorySchema>;
