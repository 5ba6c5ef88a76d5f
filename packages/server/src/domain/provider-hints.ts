/**
 * What to tell a customer about entering one record at their DNS provider, from what that
 * provider's own documentation says (`dns-providers.ts`). Each hint carries the page it rests
 * on and the provider it is for (a zone served by several providers gets every one's hints);
 * where the documentation is silent there is no hint.
 */
import { DNS_PROVIDERS, type DnsProvider } from './dns-providers.js';

/** What part of the provider's record form a hint is about. */
export type HintTopic = 'name' | 'proxy' | 'target' | 'quotes' | 'length' | 'ttl';

/** One sentence of advice for entering a record, and the provider's page it rests on. */
export interface ProviderHint {
  topic: HintTopic;
  text: string;
  /** The provider documentation page that states the fact behind `text`. */
  source: string;
  /** The {@link DnsProvider.id} of the provider whose form the hint is about. */
  provider: string;
}

/** The record as the customer is asked to enter it. */
export interface RecordToEnter {
  type: 'CNAME' | 'TXT';
  /** Relative to `zone`. */
  name: string;
  fqdn: string;
  value: string;
  zone: string;
}

const byId = new Map(
  DNS_PROVIDERS.flatMap((provider) =>
    [provider.id, ...(provider.formerIds ?? [])].map((id) => [id, provider] as const),
  ),
);

/**
 * The provider with this id, or with it among its {@link DnsProvider.formerIds}; `null` for
 * `null` or an id no longer listed.
 */
export function providerById(id: string | null): DnsProvider | null {
  return id === null ? null : (byId.get(id) ?? null);
}

/**
 * The providers with these ids, in their order, each once: ids no longer listed are left out,
 * and a former id naming a provider already there too counts once.
 */
export function providersById(ids: readonly string[]): DnsProvider[] {
  return [...new Set(ids.map(providerById).filter((p) => p !== null))];
}

/**
 * The hints for entering `record` at each of `providers` (a zone several providers serve needs
 * the record at every one), provider by provider in the order given.
 */
export function providersHints(providers: readonly DnsProvider[], record: RecordToEnter): ProviderHint[] {
  return providers.flatMap((provider) => recordHints(provider, record));
}

/** The hints for entering `record` at `provider`, in the order the form is filled in. */
export function recordHints(provider: DnsProvider, record: RecordToEnter): ProviderHint[] {
  const { hostField, cnameProxy, cnameTarget, txtQuoting, txtLength, ttl } = provider.hints;
  const hints: ProviderHint[] = [];
  const add = (topic: HintTopic, text: string, source: string) =>
    hints.push({ topic, text, source, provider: provider.id });
  if (hostField?.appendsZone)
    add(
      'name',
      `Enter the name as ${record.name}: ${provider.name} adds ${record.zone} itself, so the full name would end up as ${record.fqdn}.${record.zone}.`,
      hostField.source,
    );
  else if (hostField?.form === 'relative')
    add('name', `Enter the name as ${record.name}, without ${record.zone}.`, hostField.source);
  else if (hostField?.form === 'fqdn') add('name', `Enter the full name, ${record.fqdn}.`, hostField.source);
  if (record.type === 'CNAME') {
    if (cnameProxy)
      add(
        'proxy',
        `Set the proxy status to “${cnameProxy.requiredSetting}”: a proxied record answers with ${provider.name}'s own addresses instead of the CNAME, and never verifies.`,
        cnameProxy.source,
      );
    if (cnameTarget?.appendsZoneWithoutTrailingDot)
      add(
        'target',
        `End the target with a dot (${record.value}.): without it ${provider.name} adds ${record.zone} to it.`,
        cnameTarget.source,
      );
  } else {
    if (txtQuoting?.quotes === 'added-for-you')
      add(
        'quotes',
        `Paste the value without its surrounding quotes; ${provider.name} adds them.`,
        txtQuoting.source,
      );
    else if (txtQuoting?.quotes === 'enter-with-quotes')
      add('quotes', 'Enter the value with its surrounding quotes, as shown.', txtQuoting.source);
    const length = unquoted(record.value).length;
    if (txtLength?.maxChars !== undefined && length > txtLength.maxChars)
      add(
        'length',
        `The value has ${length} characters, more than the ${txtLength.maxChars} ${provider.name}'s form takes.`,
        txtLength.source,
      );
  }
  if (ttl?.autoSeconds !== undefined)
    add('ttl', `Leave the TTL on “Auto” (${ttl.autoSeconds} seconds at ${provider.name}).`, ttl.source);
  else if (ttl?.defaultSeconds !== undefined)
    add('ttl', `The default TTL (${ttl.defaultSeconds} seconds) is fine.`, ttl.source);
  return hints;
}

const unquoted = (value: string) => value.replace(/^"(.*)"$/s, '$1');
