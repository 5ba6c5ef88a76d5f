/**
 * The signing registrations the sender reads, one read for the requests of one turn of the event
 * loop (issue 35's speed on PostgreSQL): a claim of 100 recipients of one message asked the
 * database for the same domain's keys 100 times, two round trips each, in the same millisecond.
 *
 * Nothing is cached: the requests made before a read is sent share it, and a request made once
 * it is sent waits for a read of its own. Each signature therefore uses keys read after it was
 * asked for, as fresh as its own read would have been, and a key revoked (or a domain deleted,
 * or unverified) before a request is never used for it. A cache, however short, would sign with
 * a key revoked in another process until its notification arrived, and DKIM key revocations
 * send none.
 */
import type { DkimKeyStore, SigningDomain } from './dkim-key-store.js';

/** `keys.signingDomains`, with the requests of one turn for the same registration read once. */
export function signingDomainsOncePerTurn(
  keys: Pick<DkimKeyStore, 'signingDomains'>,
): Pick<DkimKeyStore, 'signingDomains'> {
  const waiting = new Map<string, Promise<SigningDomain[]>>();
  return {
    signingDomains(name, accountId) {
      const key = `${name}\u0000${accountId ?? ''}`;
      let read = waiting.get(key);
      if (read === undefined) {
        read = new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => {
          // sent now: later requests wait for a read of their own
          waiting.delete(key);
          return keys.signingDomains(name, accountId);
        });
        waiting.set(key, read);
      }
      return read;
    },
  };
}
