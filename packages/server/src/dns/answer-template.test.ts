/**
 * The responder's fast path (`answer-template.ts`) answers byte for byte as `answerMessage`
 * does: for many shapes of query (spellings, EDNS with and without DO, payload sizes, RD and
 * CD, unknown types, names outside the zone), from a key cache and from a table; and its ready
 * answers go with the key they were made from, and with the serial they show.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket, { type Packet, type SoaAnswer, type TxtAnswer } from 'dns-packet';
import { decodeReply, query } from '../test-support/dns-client.js';
import { answerMessage } from './answer.js';
import { answerFromTemplate } from './answer-template.js';
import { ServerCookies } from './cookie.js';
import { KeyCache, NOT_CACHED } from './key-cache.js';
import { DkimZone, type ZoneContent } from './zone.js';

const KEY = 'M'.repeat(392); // a 2048-bit key's p= is 392 characters
const TOKEN = 'k'.repeat(32);
const content: Omit<ZoneContent, 'keys' | 'serial'> = {
  origin: 'dkim.provider.test',
  nameServers: ['ns1.provider.test', 'ns2.provider.test'],
  soaContact: 'hostmaster.provider.test',
  ttl: 300,
  extraTxt: new Map([['_dck1', ['a=b']]]),
  extraMx: new Map([['return-path', [{ preference: 10, exchange: 'mx.provider.test' }]]]),
};
/** Server cookies on a fixed clock, so both paths make the same one. */
const maker = new ServerCookies(Buffer.alloc(16, 7), () => 1_700_000_000_000);
const CLIENT = '192.0.2.53';
const UDP = { transport: 'udp', transferAllowed: false, cookies: { maker, address: CLIENT } } as const;

/** A key table the cache reads from: token → public key (`null`: revoked). */
function keyTable(keys: Record<string, string | null>) {
  return {
    publishedKeys: async (tokens: string[]) =>
      tokens.filter((t) => t in keys).map((token) => ({ token, publicKey: keys[token]! })),
    publishedPage: async () => [],
  };
}

/** A zone over a key cache holding `tokens` (loaded), and the cache. */
async function cachedZone(keys: Record<string, string | null>, tokens: string[], serial = 7) {
  const cache = new KeyCache({ keys: keyTable(keys) });
  for (const token of tokens) assert.ok(await cache.load(token));
  return { cache, zone: new DkimZone({ ...content, serial, keys: cache }) };
}

/** `name` with each letter's case chosen by `pick`. */
const spell = (name: string, pick: (i: number) => boolean) =>
  [...name].map((c, i) => (pick(i) ? c.toUpperCase() : c.toLowerCase())).join('');

/**
 * Queries of many shapes for `name`; with EDNS, without a cookie and with a client cookie alone
 * or followed by a server cookie (RFC 7873 §4: valid or not, it is answered alike).
 */
function shapes(name: string): Buffer[] {
  const spellings = [
    name,
    name.toUpperCase(),
    spell(name, (i) => i % 2 === 0),
    spell(name, (i) => i % 3 === 1),
  ];
  const types = ['TXT', 'A', 'AAAA', 'SOA', 'NS', 'MX', 'ANY', 'CNAME', 'UNKNOWN_65280', 'UNKNOWN_999'];
  const out: Buffer[] = [];
  let id = 1;
  for (const spelling of spellings)
    for (const type of types)
      for (const edns of [undefined, 100, 512, 1232, 4096])
        for (const flags of [0, dnsPacket.RECURSION_DESIRED, dnsPacket.CHECKING_DISABLED])
          for (const dnssecOk of edns === undefined ? [false] : [false, true])
            for (const cookie of edns === undefined ? [undefined] : [undefined, 8, 24, 40]) {
              const packet = query(spelling, type, { id: id++, flags, ...(edns !== undefined && { edns }) });
              const opt = packet.additionals?.[0] as { flags: number; options?: object[] } | undefined;
              if (dnssecOk) opt!.flags = dnsPacket.DNSSEC_OK;
              if (cookie) opt!.options = [{ code: 10, data: Buffer.alloc(cookie, id) }];
              out.push(dnsPacket.encode(packet));
            }
  return out;
}

/** Every message answered by both paths, the same bytes; returns how many the fast path took. */
function compare(zone: DkimZone, messages: Buffer[]): number {
  let fast = 0;
  for (const message of messages) {
    // twice: the first makes the template, the second is answered from it
    for (let i = 0; i < 2; i++) {
      const ready = answerFromTemplate(message, zone, maker, CLIENT);
      const slow = answerMessage(message, zone, UDP)[0];
      if (ready === undefined) continue;
      fast++;
      assert.deepEqual(ready, slow, dnsPacket.decode(message).questions![0]!.name);
    }
  }
  return fast;
}

test('from a key cache: every shape of question at a key, a revoked key, an absence, the apex and other records, as answerMessage answers it', async () => {
  const { zone } = await cachedZone({ [TOKEN]: KEY, revoked: null }, [TOKEN, 'revoked', 'absent']);
  for (const name of [
    `${TOKEN}.dkim.provider.test`,
    'revoked.dkim.provider.test',
    'absent.dkim.provider.test',
    'dkim.provider.test',
    '_dck1.dkim.provider.test',
    'return-path.dkim.provider.test',
    `below.${TOKEN}.dkim.provider.test`,
  ]) {
    const messages = shapes(name);
    // every one of these is a plain query: all answered by the fast path
    assert.equal(compare(zone, messages), messages.length * 2, name);
  }
});

test('from a table of keys (a zone not cached), the same', () => {
  const zone = new DkimZone({ ...content, serial: 9, keys: [{ token: TOKEN, publicKey: KEY }] });
  for (const name of [`${TOKEN}.dkim.provider.test`, 'nobody.dkim.provider.test', 'dkim.provider.test']) {
    const messages = shapes(name);
    assert.equal(compare(zone, messages), messages.length * 2, name);
  }
});

test('what the fast path leaves to the slow one: outside the zone, not held, other shapes', async () => {
  const { zone } = await cachedZone({ [TOKEN]: KEY }, [TOKEN]);
  const name = `${TOKEN}.dkim.provider.test`;
  const plain = (packet: Packet) => dnsPacket.encode(packet);
  const withOpt = (opt: object) =>
    plain({
      ...query(name, 'TXT'),
      additionals: [{ name: '.', type: 'OPT', udpPayloadSize: 1232, ...opt } as never],
    });
  const left: [string, Buffer][] = [
    ['outside the zone (REFUSED)', plain(query('example.org', 'TXT', { edns: 1232 }))],
    ['not in the cache', plain(query('other.dkim.provider.test', 'TXT', { edns: 1232 }))],
    ['class CH', plain({ ...query(name, 'TXT'), questions: [{ name, type: 'TXT', class: 'CH' }] })],
    ['AXFR', plain(query('dkim.provider.test', 'AXFR'))],
    ['IXFR', plain(query('dkim.provider.test', 'IXFR'))],
    ['EDNS version 1', withOpt({ ednsVersion: 1 })],
    ['a COOKIE of a wrong length (FORMERR)', withOpt({ options: [{ code: 10, data: Buffer.alloc(12, 1) }] })],
    [
      'two COOKIEs',
      withOpt({
        options: [
          { code: 10, data: Buffer.alloc(8, 1) },
          { code: 10, data: Buffer.alloc(8, 2) },
        ],
      }),
    ],
    ['another option', withOpt({ options: [{ code: 12, data: Buffer.alloc(4) }] })],
    [
      'two questions',
      plain({
        ...query(name, 'TXT'),
        questions: [query(name, 'TXT').questions![0]!, query(name, 'A').questions![0]!],
      }),
    ],
    ['a response', plain({ ...query(name, 'TXT'), type: 'response' })],
    ['opcode NOTIFY', plain(query(name, 'SOA', { flags: 4 << 11 }))],
    ['a dot inside a label', plain(query('a\\.b.dkim.provider.test', 'TXT'))],
    ['trailing bytes', Buffer.concat([plain(query(name, 'TXT')), Buffer.from([0])])],
  ];
  for (const [what, message] of left)
    assert.equal(answerFromTemplate(message, zone, maker, CLIENT), undefined, what);
  // a COOKIE with no cookie maker to answer it
  assert.equal(
    answerFromTemplate(withOpt({ options: [{ code: 10, data: Buffer.alloc(8, 1) }] }), zone),
    undefined,
  );
  // and these are answered by it
  assert.ok(answerFromTemplate(plain(query(name, 'TXT')), zone));
  assert.ok(answerFromTemplate(plain(query(name, 'TXT', { edns: 1232 })), zone));
});

test('0x20: each query’s own spelling comes back, in the question and the answer’s owner', async () => {
  const { zone } = await cachedZone({ [TOKEN]: KEY }, [TOKEN]);
  const name = `${TOKEN}.dkim.provider.test`;
  const first = answerFromTemplate(dnsPacket.encode(query(name, 'TXT', { edns: 1232 })), zone)!;
  assert.equal(dnsPacket.decode(first).answers![0]!.name, name);
  const mixed = spell(name, (i) => i % 2 === 1);
  const reply = dnsPacket.decode(
    answerFromTemplate(dnsPacket.encode(query(mixed, 'TXT', { edns: 1232, id: 5 })), zone)!,
  );
  assert.equal(reply.id, 5);
  assert.equal(reply.questions![0]!.name, mixed);
  assert.equal(reply.answers![0]!.name, mixed);
});

test('a change to a key drops its ready answers with it: a revocation, a deletion, a new key', async () => {
  const keys: Record<string, string | null> = { [TOKEN]: KEY };
  const { cache, zone } = await cachedZone(keys, [TOKEN]);
  const ask = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, 'TXT', { edns: 1232 }));
  const text = (wire: Buffer | undefined) =>
    ((decodeReply(wire!).answers?.[0] as TxtAnswer | undefined)?.data as Buffer[] | undefined)
      ?.map(String)
      .join('');
  assert.equal(text(answerFromTemplate(ask, zone)), `v=DKIM1; k=rsa; p=${KEY}`);
  assert.ok(cache.held(TOKEN)?.answers !== undefined, 'kept beside the key');

  // revoked (what the change feed reports): no longer held, so the slow path loads it
  keys[TOKEN] = null;
  cache.invalidate([TOKEN]);
  assert.equal(answerFromTemplate(ask, zone), undefined);
  assert.equal(zone.heldKey(TOKEN), NOT_CACHED);
  assert.ok(await cache.load(TOKEN));
  assert.equal(text(answerFromTemplate(ask, zone)), 'v=DKIM1; k=rsa; p=');

  // deleted: NXDOMAIN
  delete keys[TOKEN];
  cache.invalidate([TOKEN]);
  assert.ok(await cache.load(TOKEN));
  assert.equal(decodeReply(answerFromTemplate(ask, zone)!).rcode, 'NXDOMAIN');

  // a new key at the same token
  keys[TOKEN] = 'N'.repeat(392);
  cache.invalidate([TOKEN]);
  assert.ok(await cache.load(TOKEN));
  assert.equal(text(answerFromTemplate(ask, zone)), `v=DKIM1; k=rsa; p=${'N'.repeat(392)}`);
});

test('a name keeps one ready answer per type, the eight asked last, each still right', async () => {
  const { cache, zone } = await cachedZone({ [TOKEN]: KEY }, [TOKEN]);
  const types = { TXT: 16, A: 1, AAAA: 28, MX: 15, NS: 2, SOA: 6, CNAME: 5, SRV: 33, CAA: 257, HINFO: 13 };
  const kept = () => {
    const qtypes: number[] = [];
    for (let t = cache.held(TOKEN)?.answers; t !== undefined; t = t.next) qtypes.push(t.qtype);
    return qtypes;
  };
  for (let round = 0; round < 2; round++)
    for (const [type, code] of Object.entries(types)) {
      const ask = dnsPacket.encode(query(`${TOKEN}.dkim.provider.test`, type as 'TXT', { edns: 1232 }));
      const [expected] = answerMessage(ask, zone, UDP);
      assert.deepEqual(answerFromTemplate(ask, zone), expected, `${type}, round ${round + 1}`);
      const qtypes = kept();
      assert.ok(qtypes.length <= 8, `at most eight kept, not ${qtypes.length}`);
      assert.equal(new Set(qtypes).size, qtypes.length, 'one per type');
      assert.equal(qtypes[0], code, 'the type asked last first');
    }
  assert.equal(kept().length, 8);
});

test('an eviction from the key cache takes the ready answers too', async () => {
  const cache = new KeyCache({ keys: keyTable({ a: KEY, b: KEY }), maxEntries: 1 });
  const zone = new DkimZone({ ...content, serial: 1, keys: cache });
  assert.ok(await cache.load('a'));
  const ask = dnsPacket.encode(query('a.dkim.provider.test', 'TXT', { edns: 1232 }));
  assert.ok(answerFromTemplate(ask, zone));
  assert.ok(await cache.load('b'));
  assert.equal(answerFromTemplate(ask, zone), undefined, 'a is no longer held');
});

test('an answer that shows the SOA follows the serial of the zone version asking', async () => {
  const { cache } = await cachedZone({}, ['absent']);
  const serialOf = (wire: Buffer) => (decodeReply(wire).authorities![0] as SoaAnswer).data.serial;
  for (const name of ['absent.dkim.provider.test', 'dkim.provider.test']) {
    const ask = dnsPacket.encode(query(name, name === 'dkim.provider.test' ? 'A' : 'TXT', { edns: 1232 }));
    // two versions over one cache, as the publisher makes them
    const before = new DkimZone({ ...content, serial: 7, keys: cache });
    const after = new DkimZone({ ...content, serial: 8, keys: cache });
    assert.equal(serialOf(answerFromTemplate(ask, before)!), 7);
    assert.equal(serialOf(answerFromTemplate(ask, after)!), 8, name);
    assert.deepEqual(answerFromTemplate(ask, after), answerMessage(ask, after, UDP)[0]);
  }
});
