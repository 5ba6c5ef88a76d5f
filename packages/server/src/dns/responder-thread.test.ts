// test-backends: sqlite
/**
 * The responder's thread as the server starts it (`DNS_LISTEN`): its DNS cookie secret comes
 * from `SECRET_KEY`, so every server of the zone (each process, each restarted thread) takes
 * the server cookies the others made, as RFC 9018 §5 asks of a set of servers.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import dnsPacket from 'dns-packet';
import { decodeReply, query, udpExchange } from '../test-support/dns-client.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { cookieSecret, ServerCookies } from './cookie.js';

const SECRET_KEY = randomBytes(32).toString('base64');
let servers: TestServer[] = [];
before(async () => {
  const env = { DNS_LISTEN: '127.0.0.1:0', DNS_NS: 'ns1.provider.test' };
  servers = await Promise.all([
    startTestServer({ ...env, SECRET_KEY }),
    startTestServer({ ...env, SECRET_KEY }),
  ]);
});
after(() => Promise.all(servers.map((server) => server.close())));

/** Ask `server`'s responder for its cookie with a query of no question (RFC 7873 §5.4); the RCODE and the cookie. */
async function cookieQuery(server: TestServer, cookie: Buffer): Promise<{ rcode: number; cookie: Buffer }> {
  const message = dnsPacket.encode({
    ...query('x', 'A'),
    questions: [],
    additionals: [
      {
        name: '.',
        type: 'OPT',
        udpPayloadSize: 1232,
        flags: 0,
        options: [{ code: 10, data: cookie }],
      } as never,
    ],
  });
  const reply = decodeReply((await udpExchange(server.server.dkim.responder!.address, message))!);
  const opt = reply.additionals!.find((a) => a.type === 'OPT') as unknown as {
    extendedRcode: number;
    options: { code: number; data: Buffer }[];
  };
  return {
    rcode: (opt.extendedRcode << 4) | ((reply.flags ?? 0) & 0xf),
    cookie: opt.options.find((o) => o.code === 10)!.data,
  };
}

test('servers sharing SECRET_KEY take each other’s server cookies, made under the secret derived from it', async () => {
  const [first, second] = servers as [TestServer, TestServer];
  const client = randomBytes(8);
  const issued = await cookieQuery(first, client);
  assert.equal(issued.rcode, 0);
  assert.equal(issued.cookie.length, 24);
  assert.deepEqual(issued.cookie.subarray(0, 8), client);
  assert.equal((await cookieQuery(first, issued.cookie)).rcode, 0, 'its own');
  assert.equal((await cookieQuery(second, issued.cookie)).rcode, 0, 'the same SECRET_KEY');
  // made under cookieSecret(SECRET_KEY), so any process with that key takes it; no other key does
  const madeUnder = (key: Buffer) =>
    new ServerCookies(cookieSecret(key)).isValid(client, issued.cookie.subarray(8), '127.0.0.1');
  assert.equal(madeUnder(Buffer.from(SECRET_KEY, 'base64')), true);
  assert.equal(madeUnder(randomBytes(32)), false);
  // and a server cookie not made under it is BADCOOKIE
  const forged = Buffer.concat([
    client,
    new ServerCookies(cookieSecret(randomBytes(32))).make(client, '127.0.0.1'),
  ]);
  assert.equal((await cookieQuery(second, forged)).rcode, 23);
});
