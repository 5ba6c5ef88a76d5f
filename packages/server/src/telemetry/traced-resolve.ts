/**
 * DNS spans (issue 39): each question verification asks (name and type), its answer's size or
 * its error code (`ENOTFOUND`, `ETIMEOUT`, …). One span per question as the checks ask it; the
 * authoritative resolver's walk to the zone's servers happens inside it.
 */
import type { AskedType, DnsResolve } from '../verify/resolver.js';
import { ATTR } from './attributes.js';
import type { Tracing } from './tracing.js';

/** `resolve`, each question a span; its other properties (`zoneOf`) kept. */
export function tracedResolve<R extends DnsResolve>(resolve: R, tracing: Tracing): R {
  const traced = (name: string, rrtype: AskedType) =>
    tracing.span(
      `DNS ${rrtype}`,
      { kind: 'client', attributes: { [ATTR.DNS_QUESTION_NAME]: name, [ATTR.DNS_QUESTION_TYPE]: rrtype } },
      async (span) => {
        const answer =
          (await (resolve as (n: string, t: AskedType) => Promise<unknown[]>)(name, rrtype)) ?? [];
        span.set({ [ATTR.DNS_ANSWER_COUNT]: answer.length });
        return answer;
      },
    );
  return Object.assign(traced, resolve) as unknown as R;
}
