/**
 * The webhook outbox (issue 20): domain events written inside the transaction of the change
 * that causes them, with one delivery per subscribed endpoint. Committed together or not at
 * all, so a crash between a change and its delivery loses nothing.
 */
import type { Transaction } from 'kysely';
import type { DomainEvent } from '../webhook/events.js';
import { newId } from './ids.js';
import type { Database } from './tables.js';

/**
 * Events of one transaction get consecutive `seq`s after its time, so a domain's events keep
 * their order (a check's `domain.updated` before its `domain.verified`).
 */
const SEQ_PER_MS = 16;

/**
 * Write the events `build` returns (all of one account) and their deliveries. `build` runs
 * only when the account has an active endpoint: otherwise nobody is to be told, and the change
 * costs one indexed read.
 */
export async function appendDomainEvents(
  trx: Transaction<Database>,
  accountId: string,
  build: () => DomainEvent[] | Promise<DomainEvent[]>,
  now: number,
): Promise<void> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .execute();
  if (endpoints.length === 0) return;
  const events = await build();
  const eventRows = [];
  const deliveryRows = [];
  for (const [index, event] of events.entries()) {
    const subscribed = endpoints.filter((e) => e.events.split(',').includes(event.type));
    if (subscribed.length === 0) continue;
    const id = newId('msg');
    eventRows.push({
      id,
      account_id: accountId,
      domain_id: event.snapshot.domain.id,
      type: event.type,
      snapshot: JSON.stringify(event.snapshot),
      created_at: now,
    });
    for (const endpoint of subscribed) {
      deliveryRows.push({
        id: newId('dlv'),
        event_id: id,
        endpoint_id: endpoint.id,
        domain_id: event.snapshot.domain.id,
        seq: now * SEQ_PER_MS + Math.min(index, SEQ_PER_MS - 1),
        next_attempt_at: now,
        created_at: now,
      });
    }
  }
  if (eventRows.length === 0) return;
  await trx.insertInto('webhook_events').values(eventRows).execute();
  await trx.insertInto('webhook_deliveries').values(deliveryRows).execute();
}
