/** The answers' JSON: the same text as JSON.stringify, whether or not a frozen part's JSON is reused. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { responseJson } from './response-json.js';

const view = Object.freeze({
  domain: 'a.example',
  records: Object.freeze([Object.freeze({ name: 'x', found: null })]),
});

test('answers serialise exactly as JSON.stringify does', () => {
  const answers: unknown[] = [
    [{ data: view, error: null, status: 200 }],
    [
      { data: view, error: null, status: 200 },
      {
        data: null,
        error: { code: 'DOMAIN_NOT_REGISTERED', message: 'b.example is not registered' },
        status: 404,
      },
      { data: { domain: 'c.example', records: [] }, error: null, status: 200 },
    ],
    [
      { data: view, error: null, status: 200 },
      { data: view, error: null, status: 200 },
    ],
    [{ data: view, error: null, status: 207 }],
    [],
    { data: { domains: [view], next: null }, error: null, status: 200 },
    { error: { code: 'VALIDATION_FAILED', message: 'no' } },
    ['a', 1, null],
  ];
  for (const answer of answers) {
    assert.equal(responseJson(answer).toString(), JSON.stringify(answer));
    // a second time, from what was kept
    assert.equal(responseJson(answer).toString(), JSON.stringify(answer));
  }
});

test('a value that can still change is serialised afresh each time', () => {
  const open = { domain: 'd.example', status: 'pending' };
  const answer = [{ data: open, error: null, status: 200 }];
  assert.equal(responseJson(answer).toString(), JSON.stringify(answer));
  open.status = 'verified';
  assert.match(responseJson(answer).toString(), /"verified"/);
});
