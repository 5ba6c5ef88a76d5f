/**
 * Issue 37: `GET /api/public/emails` at ten million messages in one account on PostgreSQL.
 * Loads messages (one recipient and one `campaign` tag each, five sending domains, statuses as
 * a real account's: mostly sent, some bounced, deferred, failed) straight into the database,
 * then times each kind of page through the real server: unfiltered, by status, recipient,
 * domain, tag name, tag name and value, a time window, and the 20th page by cursor. The
 * baseline is the same pages at 10,000 messages, measured first in the same run: each filter
 * is an index range led by the account, so the ratio should stay near 1×. The plans printed
 * show the index each query uses.
 *
 * BENCH_EMAILS sets the large size (default 10,000,000; e.g. 1000000 for a quicker run).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startPostgres } from '../src/test-support/postgres.js';
import { fmt, startService } from './support.js';

const SMALL = 10_000;
/** Rows per insert statement while loading. */
const CHUNK = 500_000;
const SAMPLES = 40;
const DOMAINS = Array.from({ length: 5 }, (_, i) => `d${i}.list.bench.example`);
const T0 = Date.UTC(2026, 0, 1);
/** Ten messages a second: 10M messages span about eleven and a half days. */
const STEP_MS = 100;

/** Each page the bench times, as a query string (`cursor` for the deep page is found first). */
const PAGES: [string, string][] = [
  ['newest 50', '?limit=50'],
  ['status=bounced', '?limit=50&status=bounced'],
  ['status=failed (2 %)', '?limit=50&status=failed'],
  ['recipient (1 in 10,000 messages)', '?limit=50&recipient=user4242%40example.org'],
  ['domain', `?limit=50&domain=${DOMAINS[3]}`],
  ['tag name', '?limit=50&tag=campaign'],
  ['tag name and value (1 in 50)', '?limit=50&tag=campaign&tagValue=c7'],
  [
    'a time window (the 5,000th to 9,000th message)',
    `?limit=50&since=${new Date(T0 + 5_000 * STEP_MS).toISOString()}&until=${new Date(T0 + 9_000 * STEP_MS).toISOString()}`,
  ],
];

const DEEP_PAGE = '20th page by cursor (tag name and value)';

interface Timing {
  p50: number;
  p99: number;
  count: number;
}

export async function runEmailListBench(): Promise<void> {
  const large = Number(process.env.BENCH_EMAILS ?? 10_000_000);
  console.log(`\n## Listing sent mail: ${fmt(SMALL)} and ${fmt(large)} messages in one account (PostgreSQL)`);
  const postgres = await startPostgres();
  const url = await postgres.createDatabase();
  const service = await startService({ DATABASE_URL: url, SENDING_ENABLED: 'false' });
  const db = new pg.Pool({ connectionString: url, max: 2 });
  db.on('error', () => {});
  try {
    const registered = await fetch(`${service.url}/api/public/domain`, {
      method: 'POST',
      headers: { authorization: service.key, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: DOMAINS.map((domain) => ({ domain, domainType: 'Marketing' })) }),
    });
    if (!registered.ok) throw new Error(`registering the bench's domains: ${registered.status}`);
    const domains = await db.query<{ id: string; account_id: string }>(
      'select id, account_id from domains order by name',
    );
    const accountId = domains.rows[0]!.account_id;
    const domainIds = domains.rows.map((r) => r.id);

    await load(db, accountId, domainIds, 0, SMALL);
    const small = await measurePages(service.url, service.key);
    const startedAt = performance.now();
    for (let from = SMALL; from < large; from += CHUNK)
      await load(db, accountId, domainIds, from, Math.min(large, from + CHUNK));
    await db.query('analyze');
    const loadSeconds = (performance.now() - startedAt) / 1000;
    const big = await measurePages(service.url, service.key);

    console.log(
      `\nloaded ${fmt(large - SMALL)} messages in ${fmt(loadSeconds)} s (recipients and tags with them)`,
    );
    console.log(`\n| page | ${fmt(SMALL)}: p50 / p99 | ${fmt(large)}: p50 / p99 | ratio (p50) | rows |`);
    console.log('|---|---|---|---|---|');
    for (const label of [...PAGES.map(([l]) => l), DEEP_PAGE]) {
      const a = small.get(label)!;
      const b = big.get(label)!;
      console.log(
        `| ${label} | ${fmt(a.p50, 1)} / ${fmt(a.p99, 1)} ms | ${fmt(b.p50, 1)} / ${fmt(b.p99, 1)} ms | ${fmt(b.p50 / a.p50, 2)}× | ${b.count} |`,
      );
    }
    await printPlans(db, accountId, domainIds[3]!);
  } finally {
    await db.end();
    await service.stop();
    await postgres.stop();
  }
}

/** Messages `from` to `to` (exclusive), each with its recipient and tag rows, one statement per table. */
async function load(db: pg.Pool, accountId: string, domainIds: string[], from: number, to: number) {
  const params = [accountId, from, to - 1, T0, STEP_MS];
  const status = `case when g % 20 = 0 then 'bounced' when g % 50 = 1 then 'failed' when g % 33 = 2 then 'deferred' else 'sent' end`;
  const domain = `(array[${domainIds.map((id) => `'${id}'`).join(',')}])[g % ${domainIds.length} + 1]`;
  await db.query(
    `insert into emails (id, account_id, domain_id, from_address, subject, message, tags, created_at, status)
     select 'eml_b' || lpad(g::text, 10, '0'), $1, ${domain}, 'news@bench.example', 'Message ' || g, 'm',
       '[{"name":"campaign","value":"c' || (g % 50) || '"}]', $4::bigint + g * $5::bigint, ${status}
     from generate_series($2::bigint, $3::bigint) g`,
    params,
  );
  await db.query(
    `insert into email_recipients (id, email_id, position, address, kind, status, attempts, updated_at)
     select 'rcp_b' || lpad(g::text, 10, '0'), 'eml_b' || lpad(g::text, 10, '0'), 0,
       'user' || (g % 10000) || '@example.org', 'to', ${status}, 1, $3::bigint + g * $4::bigint
     from generate_series($1::bigint, $2::bigint) g`,
    params.slice(1),
  );
  await db.query(
    `insert into email_tags (email_id, account_id, name, value, created_at)
     select 'eml_b' || lpad(g::text, 10, '0'), $1, 'campaign', 'c' || (g % 50), $4::bigint + g * $5::bigint
     from generate_series($2::bigint, $3::bigint) g`,
    params,
  );
  if (from === 0) await db.query('analyze');
}

/** p50 and p99 of each page, {@link SAMPLES} requests each, one at a time. */
async function measurePages(url: string, key: string): Promise<Map<string, Timing>> {
  const get = async (query: string) => {
    const res = await fetch(`${url}/api/public/emails${query}`, { headers: { authorization: key } });
    if (!res.ok) throw new Error(`GET /api/public/emails${query}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { data: { emails: unknown[]; nextCursor: string | null } };
    return body.data;
  };
  const timed = async (query: string): Promise<Timing> => {
    await get(query); // warm
    const ms: number[] = [];
    let count = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      count = (await get(query)).emails.length;
      ms.push(performance.now() - start);
    }
    ms.sort((a, b) => a - b);
    return { p50: ms[Math.floor(SAMPLES / 2)]!, p99: ms[Math.ceil(SAMPLES * 0.99) - 1]!, count };
  };
  const out = new Map<string, Timing>();
  for (const [label, query] of PAGES) out.set(label, await timed(query));
  // the 20th page of a filtered listing, by following cursors
  const deep = '?limit=50&tag=campaign&tagValue=c7';
  let cursor: string | null = null;
  for (let page = 1; page < 20; page++) {
    cursor = (await get(`${deep}${cursor ? `&cursor=${cursor}` : ''}`)).nextCursor;
    if (cursor === null) break;
  }
  out.set(
    '20th page by cursor (tag name and value)',
    await timed(`${deep}${cursor ? `&cursor=${cursor}` : ''}`),
  );
  return out;
}

/** The plans PostgreSQL picks at the large size, for the filters that join another table. */
async function printPlans(db: pg.Pool, accountId: string, domainId: string) {
  const plans: [string, string, unknown[]][] = [
    [
      'status',
      `select id from emails where account_id = $1 and status = 'failed' order by created_at desc, id desc limit 51`,
      [accountId],
    ],
    [
      'domain',
      'select id from emails where account_id = $1 and domain_id = $2 order by created_at desc, id desc limit 51',
      [accountId, domainId],
    ],
    [
      'tag name and value',
      `select e.id from email_tags t join emails e on e.id = t.email_id where t.account_id = $1 and t.name = 'campaign' and t.value = 'c7' and e.account_id = $1 order by t.created_at desc, t.email_id desc limit 51`,
      [accountId],
    ],
    [
      'recipient',
      `select id from emails e where account_id = $1 and id in (select email_id from email_recipients where address = 'user4242@example.org') order by created_at desc, id desc limit 51`,
      [accountId],
    ],
  ];
  for (const [label, query, params] of plans) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain ${query}`, params);
    console.log(`\nplan, ${label}:\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
  }
}
