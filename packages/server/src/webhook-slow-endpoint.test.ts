/**
 * The webhook deliverer shares the sender's claim loop (issue 35): an endpoint that holds its
 * answer does not hold back the deliveries to other endpoints. Mail through the sandbox makes
 * the events (`email.sent`, `email.delivered`, one stream per message).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { startTestServer } from './test-support/test-server.js';
import { waitUntil } from './test-support/wait.js';
import { startWebhookReceiver } from './test-support/webhook-receiver.js';

test('an endpoint that holds its answer does not hold back another endpoint’s events', async () => {
  const t = await startTestServer({
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_INTERVAL_MS: '20',
    WEBHOOK_TIMEOUT_MS: '60000',
    SEND_INTERVAL_MS: '20',
  });
  after(() => t.close());
  // an endpoint that takes every request and answers only when released
  let held = 0;
  const waiting: (() => void)[] = [];
  let released = false;
  const slow = createServer((request, response) => {
    request.resume();
    held++;
    const answer = () => response.writeHead(204).end();
    if (released) answer();
    else waiting.push(answer);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => slow.close(() => resolve())));
  const quick = await startWebhookReceiver();
  after(() => quick.close());
  const { key } = await t.createKey();
  for (const url of [`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`, quick.url]) {
    const endpoint = await t.request('POST', '/api/public/webhooks', { key, body: { url } });
    assert.equal(endpoint.status, 200, JSON.stringify(endpoint.body));
  }
  const send = async () => {
    const res = await t.request('POST', '/api/public/emails', {
      key,
      body: {
        from: 'onboarding@sandbox.test',
        to: ['delivered@sandbox.test'],
        subject: 'Hi',
        html: '<p>Hi</p>',
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };

  await send();
  await waitUntil('the slow endpoint holds the first event', () => held >= 1 || undefined);
  await send();
  // both messages' events (sent and delivered each) reach the quick endpoint meanwhile
  await waitUntil('four events at the quick endpoint', () => quick.received.length >= 4 || undefined);
  assert.equal(waiting.length, held, 'the slow endpoint has answered nothing yet');
  released = true;
  for (const answer of waiting.splice(0)) answer();
  // then the slow endpoint gets the rest, in order per message
  await waitUntil('four events at the slow endpoint', () => held >= 4 || undefined);
});
