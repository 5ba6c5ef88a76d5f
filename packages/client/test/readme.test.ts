/**
 * The client README against the code it documents: what a reader copies from it must be what
 * sendctl takes (issue 40: it said `webhooks add` without `--events` subscribes "all four" of
 * what were ten events, and later missed the two tracking events).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { WEBHOOK_EVENTS } from '../src/cli/webhooks.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

test('the README lists every webhook event type `webhooks add --events` takes, and no other', () => {
  const paragraph = readme.slice(
    readme.indexOf('`--events` takes a'),
    readme.indexOf('any other name is a usage error'),
  );
  assert.ok(paragraph.length > 0, 'the --events paragraph is in the README');
  const listed = [...paragraph.matchAll(/`((?:domain|email)\.[a-z_]+)`/g)].map((m) => m[1]);
  assert.deepEqual(listed, WEBHOOK_EVENTS);
});
