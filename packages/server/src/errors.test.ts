import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE } from './errors.js';

const docsFile = fileURLToPath(new URL('../../../docs/api-errors.md', import.meta.url));

test('docs/api-errors.md lists exactly the catalogue: every code, status and level', () => {
  const rows = readFileSync(docsFile, 'utf8')
    .split('\n')
    .map((line) => /^\| `([A-Z_]+)` \| (\d{3}) \| (request|item) \|/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], Number(m[2]), m[3]]);
  const catalogue = Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, e.status, e.level]);
  assert.deepEqual(rows, catalogue);
});
