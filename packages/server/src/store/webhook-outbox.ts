/**
 * The webhook outbox (issues 20, 21): domain and email events written inside the transaction
 * of the change that causes them, with one delivery per subscribed endpoint. Committed together or not at
 * all, so a crash between a change and its delivery loses nothing.
 */
import type { Transaction } from 'kysely';
import type { DomainEvent, OutboxEvent } from '../webhook/events.js';
import { newId } from './ids.js';
import type { Database } from './tables.js';

/**
 * Events of one transaction get consecutive `seq`s after its time, so a domain's events keep
 * their order (a check's `domain.updated` before its `domain.verified`).
 */
const SEQ_PER_MS = 16;

/** Write a change's domain events (see {@link appendEvents}), each in its domain's stream. */
export function appendDomainEvents(
  trx: Transaction<Database>,
  accountId: string,
  build: () => DomainEvent[] | Promise<DomainEvent[]>,
  now: number,
): Promise<void> {
  return appendEvents(
    trx,
    accountId,
    async () => (await build()).map((e) => ({ ...e, stream: e.snapshot.domain.id })),
    now,
  );
}

/**
 * Write the events `build` returns (all of one account) and their deliveries. `build` runs
 * only when the account has an active endpoint: otherwise nobody is to be told, and the change
 * costs one indexed read.
 */
export async function appendEvents(
  trx: Transaction<Database>,
  accountId: string,
  build: () => OutboxEvent[] | Promise<OutboxEvent[]>,
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
      stream: event.stream,
      type: event.type,
      snapshot: JSON.stringify(event.snapshot),
      created_at: now,
    });
    for (const endpoint of subscribed) {
      deliveryRows.push({
        id: newId('dlv'),
        event_id: id,
        endpoint_id: endpoint.id,
        stream: event.stream,
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
