/**
 * Whether a key is served everywhere we serve the DKIM zone: by this process's responder and
 * by every secondary (`DNS_SECONDARIES`), each asked over the wire. Rotation signs with a new
 * key only after this holds, plus the TTL of what resolvers may still hold (see
 * `rotation-plan.ts`). Other server processes' responders follow the database within a second
 * (`ZonePublisher` polls); the TTL covers them.
 */
import { Resolver } from 'node:dns/promises';
import type { HostPort } from '../config.js';
import { dkimKeyRecord } from '../dns/key-record.js';

/** Answers whether `publicKey` is what every place we serve answers for `token`. */
export type PublicationCheck = (token: string, publicKey: string) => Promise<boolean>;

export function publicationCheck(options: {
  /** Whether this process's responder serves `record` for `token`, when its responder is on. */
  servedHere: ((token: string, record: string) => Promise<boolean>) | undefined;
  /** The zone's apex, for the secondaries' queries. */
  origin: string;
  secondaries: readonly HostPort[];
  timeoutMs?: number;
}): PublicationCheck {
  const resolvers = options.secondaries.map((s) => {
    const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
    resolver.setServers([s.host.includes(':') ? `[${s.host}]:${s.port}` : `${s.host}:${s.port}`]);
    return resolver;
  });
  return async (token, publicKey) => {
    const expected = dkimKeyRecord(publicKey);
    if (options.servedHere) {
      if (!(await options.servedHere(token, expected))) return false;
      const name = `${token}.${options.origin}`;
      const answers = await Promise.all(
        resolvers.map((r) =>
          r.resolveTxt(name).then(
            (records) => records.some((strings) => strings.join('') === expected),
            () => false,
          ),
        ),
      );
      return answers.every(Boolean);
    }
    // No responder here: the zone is served by whatever the operator set up, which we cannot
    // ask; the TTL wait alone protects the switch.
    return true;
  };
}
