/**
 * Messages per minute per destination (issue 35): the pace itself with a clock of its own, and
 * its configuration as start-up reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.js';
import {
  DestinationPace,
  MAX_WAIT_MS,
  PROVIDER_RATES,
  parseDestinationRates,
  RECOVER_MS,
} from './destination-rates.js';

const GMAIL = ['gmail-smtp-in.l.google.com', 'alt1.gmail-smtp-in.l.google.com', 'aspmx.l.google.com'];

test('every MX host of a provider shares its pace, whatever its name or address: 240 a minute is one every 250 ms', () => {
  const pace = new DestinationPace(parseDestinationRates(undefined, 0));
  const turns = Array.from({ length: 9 }, (_, n) => pace.take(GMAIL[n % 3]!, `142.250.0.${n}`, 1_000));
  assert.deepEqual(
    turns.map((t) => t.go && t.waitMs),
    [0, 250, 500, 750, 1_000, 1_250, 1_500, 1_750, 2_000],
  );
  // Google Workspace's MX names are Gmail's receiver too
  assert.deepEqual(pace.take('ALT2.ASPMX.L.GOOGLE.COM.', '142.250.9.9', 1_000), {
    go: false,
    retryAt: 1_250,
    rule: 'google',
  });
});

test(`a message whose turn is more than ${MAX_WAIT_MS} ms off is put back for a turn of its own, one per interval, nothing reserved`, () => {
  const pace = new DestinationPace(parseDestinationRates('*.mx.example.net=60', 0));
  // one a second: the first goes, the next two wait, the rest come back later, spaced out
  const turns = Array.from({ length: 6 }, () => pace.take('a.mx.example.net', '192.0.2.1', 0));
  assert.deepEqual(turns, [
    { go: true, waitMs: 0 },
    { go: true, waitMs: 1_000 },
    { go: true, waitMs: 2_000 },
    { go: false, retryAt: 1_000, rule: '*.mx.example.net' },
    { go: false, retryAt: 2_000, rule: '*.mx.example.net' },
    { go: false, retryAt: 3_000, rule: '*.mx.example.net' },
  ]);
  // back at its turn, the first put back waits no longer than it may
  const back = pace.take('b.mx.example.net', '192.0.2.2', 1_000);
  assert.deepEqual(back, { go: true, waitMs: 2_000 });
});

test('hosts no rule names: no limit by default; SMTP_MESSAGES_PER_MINUTE paces each MX address on its own', () => {
  const free = new DestinationPace(parseDestinationRates(undefined, 0));
  for (let n = 0; n < 100; n++)
    assert.deepEqual(free.take('mx.example.org', '192.0.2.1', 0), { go: true, waitMs: 0 });

  const paced = new DestinationPace(parseDestinationRates(undefined, 30));
  assert.deepEqual(paced.take('mx1.example.org', '192.0.2.1', 0), { go: true, waitMs: 0 });
  assert.deepEqual(paced.take('mx1.example.org', '192.0.2.1', 0), { go: true, waitMs: 2_000 });
  // another address, another destination
  assert.deepEqual(paced.take('mx1.example.org', '192.0.2.2', 0), { go: true, waitMs: 0 });
  // a provider's own rate still applies to its hosts
  assert.deepEqual(paced.take('mx-biz.mail.am0.yahoodns.net', '192.0.2.3', 0), { go: true, waitMs: 0 });
  assert.deepEqual(paced.take('mx-biz.mail.am0.yahoodns.net', '192.0.2.3', 0), { go: true, waitMs: 250 });
});

test('SMTP_DESTINATION_RATES: a provider by name (0 lifts its limit), and MX patterns, which come before the providers', () => {
  const rates = parseDestinationRates(
    'google=0, apple = 30,*.eu.mail.protection.outlook.com|mx.example.net=6',
    0,
  );
  assert.equal(rates.rules.find((r) => r.name === 'google')!.perMinute, 0);
  assert.equal(rates.rules.find((r) => r.name === 'apple')!.perMinute, 30);
  const pace = new DestinationPace(rates);
  for (let n = 0; n < 20; n++)
    assert.deepEqual(pace.take(GMAIL[0]!, '192.0.2.1', 0), { go: true, waitMs: 0 });
  // one pace for both patterns of the entry, before Microsoft 365's own
  assert.deepEqual(pace.take('contoso-com.eu.mail.protection.outlook.com', '192.0.2.4', 0), {
    go: true,
    waitMs: 0,
  });
  assert.deepEqual(pace.take('mx.example.net', '192.0.2.5', 0), {
    go: false,
    retryAt: 8_000,
    rule: '*.eu.mail.protection.outlook.com|mx.example.net',
  });
  // elsewhere in Microsoft 365: its built-in pace
  assert.deepEqual(pace.take('contoso-com.mail.protection.outlook.com', '192.0.2.6', 0), {
    go: true,
    waitMs: 0,
  });
  // the built-in rules are not changed by a parse
  assert.equal(PROVIDER_RATES.find((r) => r.name === 'google')!.perMinute, 240);
});

test('the rates are read at start; a wrong entry stops it, naming the variable and the entry', () => {
  const config = loadConfig({});
  assert.equal(config.sending.rates.defaultPerMinute, 0);
  assert.deepEqual(
    config.sending.rates.rules.map((r) => [r.name, r.perMinute]),
    [
      ['google', 240],
      ['outlook', 240],
      ['microsoft365', 240],
      ['yahoo', 240],
      ['apple', 120],
    ],
  );
  assert.equal(loadConfig({ SMTP_MESSAGES_PER_MINUTE: '120' }).sending.rates.defaultPerMinute, 120);
  for (const [env, why] of [
    [
      { SMTP_DESTINATION_RATES: 'google' },
      /SMTP_DESTINATION_RATES: "google" is not target=messages-per-minute/,
    ],
    [{ SMTP_DESTINATION_RATES: 'google=fast' }, /SMTP_DESTINATION_RATES: "google=fast" is not target=/],
    [{ SMTP_DESTINATION_RATES: 'google=-1' }, /"google=-1" is not target=/],
    [
      { SMTP_DESTINATION_RATES: 'gmail=100' },
      /"gmail" in "gmail=100" is neither a provider \(google, outlook/,
    ],
    [{ SMTP_DESTINATION_RATES: 'mx.*.example=100' }, /"mx\.\*\.example" in "mx\.\*\.example=100" is neither/],
    [{ SMTP_MESSAGES_PER_MINUTE: 'lots' }, /SMTP_MESSAGES_PER_MINUTE/],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && why.test(error.message),
    );
  }
});

test('a 421 doubles a paced destination’s spacing, up to a minute, and a minute without one steps it back', () => {
  const pace = new DestinationPace(parseDestinationRates('*.mx.example.net=60', 0));
  const host = 'a.mx.example.net';
  assert.deepEqual(pace.take(host, '192.0.2.1', 0), { go: true, waitMs: 0 });
  pace.slowDown(host, '192.0.2.1', 0);
  // the next turn was given at 1 s; the one after it comes 2 s later
  assert.deepEqual(pace.take(host, '192.0.2.1', 1_000), { go: true, waitMs: 0 });
  assert.deepEqual(pace.take(host, '192.0.2.1', 1_000), { go: true, waitMs: 2_000 });
  for (let n = 0; n < 10; n++) pace.slowDown('b.mx.example.net', '192.0.2.2', 2_000);
  // the turn already given (5 s) stands; the next is a minute after it, at most one a minute
  assert.deepEqual(pace.take(host, '192.0.2.1', 5_000), { go: true, waitMs: 0 });
  assert.deepEqual(pace.take(host, '192.0.2.1', 5_000), {
    go: false,
    retryAt: 63_000,
    rule: '*.mx.example.net',
  });
  // a minute without a 421: back at its turn (65 s), and the next 30 s after it
  assert.equal(RECOVER_MS, 60_000);
  assert.deepEqual(pace.take(host, '192.0.2.1', 63_000), { go: true, waitMs: 2_000 });
  assert.deepEqual(pace.take(host, '192.0.2.1', 63_000), {
    go: false,
    retryAt: 93_000,
    rule: '*.mx.example.net',
  });
  // a host with no pace: nothing to slow (its sessions are)
  pace.slowDown('mx.elsewhere.test', '192.0.2.9', 0);
  assert.deepEqual(pace.take('mx.elsewhere.test', '192.0.2.9', 0), { go: true, waitMs: 0 });
});
