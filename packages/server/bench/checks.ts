/**
 * What the verification benchmarks share: a thousand registrations, half of them published,
 * and the wait until a server's scheduler has checked them all.
 */
import { generateApiKey } from '../src/domain/api-key.js';
import { newToken } from '../src/domain/token.js';
import type { RunningServer } from '../src/server.js';

/**
 * Registers `count` domains `<prefix><i>.bench.test` straight in `server`'s store (scheduler
 * off), and returns the nsupdate lines that publish the DKIM CNAMEs of every other one.
 */
export async function registerHalfPublished(
  server: RunningServer,
  count: number,
  prefix: string,
): Promise<string[]> {
  const generated = generateApiKey();
  const { accountId } = await server.store.createApiKey({
    name: 'bench',
    keyHash: generated.hash,
    keyPrefix: generated.prefix,
    scopes: ['*'],
  });
  const updates: string[] = [];
  for (let batch = 0; batch < count / 100; batch++) {
    const domains = Array.from({ length: 100 }, (_, i) => ({
      name: `${prefix}${batch * 100 + i}.bench.test`,
      type: 'Transactional' as const,
    }));
    const outcomes = await server.store.registerDomains(accountId, domains, {
      maxDomains: 1e6,
      now: Date.now(),
      newToken: () => newToken(),
    });
    outcomes.forEach((outcome, i) => {
      if (!outcome.ok || i % 2 === 1) return;
      for (const record of outcome.domain.records.filter((r) => r.kind === 'dkim'))
        updates.push(
          `update add ${record.token}._domainkey.${outcome.domain.name}. 300 CNAME ${record.token}.dkim.provider.test.`,
        );
    });
  }
  return updates;
}

/** Resolves once `count` domains of `server` have been checked; then how many are verified. */
export async function waitForChecks(server: RunningServer, count: number): Promise<number> {
  const counted = async (onlyVerified: boolean) => {
    let query = server.store.db.selectFrom('domains').select((eb) => eb.fn.countAll<number>().as('n'));
    query = onlyVerified
      ? query.where('status', '=', 'verified')
      : query.where('last_checked_at', 'is not', null);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  while ((await counted(false)) < count) await new Promise((resolve) => setTimeout(resolve, 20));
  return counted(true);
}
