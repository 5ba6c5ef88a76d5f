/**
 * Named (prepared) statements on PostgreSQL for the hottest reads. Kysely sends each query as
 * text, which PostgreSQL parses and plans every time; a statement marked here is parsed once
 * per connection instead (node-postgres prepares it under its name the first time a connection
 * runs it, then sends only its arguments). The registration read (`domain-rows.ts`), over
 * 10,000,000 domains, one connection, pages in memory: 114–120 µs of the backend's CPU and
 * 157–165 µs a read as a named statement, 167–205 µs and 223–297 µs as text (planning the
 * records' JSON costs more than the round trip it saves), 138–147 µs and 217–227 µs as the two
 * statements it replaced.
 *
 * Only statements whose text does not change with their arguments are marked (a list is one
 * array parameter), so each connection holds a handful. Each names its columns rather than
 * `*`: a column added by a newer version's migration while this process runs must not change
 * a prepared statement's result (PostgreSQL would refuse to run it: "cached plan must not change
 * result type").
 *
 * Behind PgBouncer in transaction mode, named statements need PgBouncer 1.21 or later with
 * `max_prepared_statements` set; `DB_PREPARED_STATEMENTS=false` turns them off.
 */
import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import type pg from 'pg';

/** The text of each marked statement and its name. */
const names = new Map<string, string>();
/** More marked texts than this means a caller marks a text that varies: stop naming new ones. */
const MOST = 64;

/** Mark `query`'s text to run as a named statement on connections that {@link nameStatements}. */
export function prepared<Q extends CompiledQuery>(query: Q): Q {
  if (!names.has(query.sql) && names.size < MOST)
    names.set(query.sql, `s_${createHash('sha256').update(query.sql).digest('hex').slice(0, 16)}`);
  return query;
}

type Query = (...args: unknown[]) => unknown;

/** Run the marked statements as named ones on this connection (from the pool's `connect`). */
export function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  (client as unknown as { query: Query }).query = (text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' ? names.get(text) : undefined;
    // Kysely calls query(text, values)
    return name === undefined ? query(text, ...rest) : query({ name, text, values: rest[0] });
  };
}
