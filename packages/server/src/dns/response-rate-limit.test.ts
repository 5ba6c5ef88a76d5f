/** The rate limiter's arithmetic, on a clock the test moves: refill, client networks, the table bound. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import dnsPacket from 'dns-packet';
import { query } from '../test-support/dns-client.js';
import { clientHost, clientNetwork } from './client-address.js';
import { ResponseRateLimiter, truncatedReply } from './response-rate-limit.js';

const question = (name: string) => dnsPacket.encode(query(name, 'TXT'));
const answer = (name: string, rcode = 'NOERROR') =>
  dnsPacket.encode({
    ...query(name, 'TXT'),
    type: 'response',
    flags: dnsPacket.AUTHORITATIVE_ANSWER,
    rcode,
  } as never);

test('client networks: IPv4 /24 and IPv6 /56 for answers, IPv4 address and IPv6 /64 for connections', () => {
  assert.equal(clientNetwork('192.0.2.77'), '192.0.2.0/24');
  assert.equal(clientNetwork('2001:db8:aa:bbcc::1'), '2001:0db8:00aa:bb00::/56');
  assert.equal(clientNetwork('2001:db8:aa:bbff:1::9'), clientNetwork('2001:db8:aa:bb00::'));
  assert.notEqual(clientNetwork('2001:db8:aa:bc00::1'), clientNetwork('2001:db8:aa:bb00::1'));
  assert.equal(clientHost('192.0.2.77'), '192.0.2.77');
  assert.equal(clientHost('2001:db8::1'), clientHost('2001:0db8:0:0:ffff::2'));
  assert.notEqual(clientHost('2001:db8:0:1::1'), clientHost('2001:db8::1'));
});

test('the budget refills with time, and one name in any case counts once', () => {
  let now = 0;
  const limiter = new ResponseRateLimiter({ perSecond: 4, slip: 2, now: () => now });
  const name = 'a.dkim.provider.test';
  const decide = (n: string) => limiter.decide('192.0.2.1', question(n), answer(n));
  assert.deepEqual([name, name.toUpperCase(), 'A.Dkim.Provider.Test', name, name, name, name].map(decide), [
    'send',
    'send',
    'send',
    'send',
    'drop',
    'slip',
    'drop',
  ]);
  // Another question, and the same question from another network, have budgets of their own.
  assert.equal(decide('b.dkim.provider.test'), 'send');
  assert.equal(limiter.decide('192.0.3.1', question(name), answer(name)), 'send');
  now += 500; // half a second: two answers' worth
  assert.deepEqual([name, name, name].map(decide), ['send', 'send', 'slip']);
});

test('the table is bounded: past maxEntries the idle counts go', () => {
  let now = 0;
  const limiter = new ResponseRateLimiter({ perSecond: 2, slip: 0, maxEntries: 100, now: () => now });
  for (let i = 0; i < 1000; i++) {
    const name = `n${i}.dkim.provider.test`;
    limiter.decide('192.0.2.1', question(name), answer(name));
    now += 1000;
    assert.ok(limiter.size <= 100);
  }
});

test("a slip is the reply's header with TC and the question only", () => {
  const full = dnsPacket.encode({
    ...query('a.dkim.provider.test', 'TXT', { id: 99 }),
    type: 'response',
    answers: [{ name: 'a.dkim.provider.test', type: 'TXT', data: 'x'.repeat(200) }],
  } as never);
  const slip = truncatedReply(full)!;
  const decoded = dnsPacket.decode(slip) as dnsPacket.DecodedPacket;
  assert.equal(decoded.id, 99);
  assert.equal(decoded.flag_tc, true);
  assert.equal(decoded.answers?.length, 0);
  assert.equal(decoded.questions?.[0]?.name, 'a.dkim.provider.test');
  assert.equal(slip.length, question('a.dkim.provider.test').length);
});
