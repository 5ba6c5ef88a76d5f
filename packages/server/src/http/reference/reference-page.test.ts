/** The API reference's renderer on small documents: what it escapes, links and shows as examples. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exampleValue } from './example-value.js';
import { inlineMarkdown } from './html.js';
import type { OpenApiDocument } from './openapi-types.js';
import { operationAnchor, renderReferencePage } from './reference-page.js';

const document: OpenApiDocument = {
  info: { title: 'T', version: '1', description: 'See the [dashboard](/domains).' },
  tags: [{ name: 'Domains' }],
  paths: {
    '/api/public/domain/dkim/rotate': {
      post: {
        summary: 'Rotate',
        tags: ['Domains'],
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Rotate' } } },
        },
        responses: {
          '200': { description: 'Default Response' },
          '400': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Err' } } } },
          '401': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Err' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Rotate: {
        type: 'object',
        required: ['domain'],
        properties: {
          domain: { type: 'string', examples: ['mail.example.com'] },
          at: { type: 'string', format: 'date-time' },
          force: { type: 'boolean', default: false },
        },
      },
      Err: { type: 'object', properties: { code: { anyOf: [{ const: 'A' }, { const: 'B' }] } } },
    },
  },
};

test('descriptions are escaped; code spans show their text; only http(s) and local links become links', () => {
  assert.equal(
    inlineMarkdown('`<API_KEY>` & [docs](/docs) [x](javascript:alert(1)) **b**'),
    '<code>&lt;API_KEY&gt;</code> &amp; <a href="/docs">docs</a> [x](javascript:alert(1)) <strong>b</strong>',
  );
  assert.equal(inlineMarkdown('<img src=x onerror=alert(1)>'), '&lt;img src=x onerror=alert(1)&gt;');
});

test('an example takes the schema’s own values: required properties, and optional ones that name a value', () => {
  assert.deepEqual(exampleValue({ $ref: '#/components/schemas/Rotate' }, document), {
    domain: 'mail.example.com',
    force: false,
  });
});

test('the page links each operation and schema, and merges responses that share a body', () => {
  const html = renderReferencePage(document);
  const id = operationAnchor('post', '/api/public/domain/dkim/rotate');
  assert.equal(id, 'post-api-public-domain-dkim-rotate');
  assert.match(html, new RegExp(`<a href="#${id}">`));
  assert.match(html, new RegExp(`<article class="operation" id="${id}"`));
  assert.match(html, /<span class="status">400, 401<\/span>/);
  assert.match(html, /<a href="#schema-Err">Err<\/a>/);
  assert.match(html, /id="schema-Err"/);
  assert.match(html, /one of <code>A<\/code>, <code>B<\/code>/);
  assert.doesNotMatch(html, /Default Response/);
  assert.doesNotMatch(html, /<script/);
});
