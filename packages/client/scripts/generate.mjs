#!/usr/bin/env node
// Generate the client's types from the server's OpenAPI document, so nothing is written twice:
// `src/generated/openapi.ts` (paths and components as TypeScript) and `openapi.json` (at the
// package's root, where even Node 10-style resolution finds `@service/client/openapi.json`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const document = execFileSync(
  process.execPath,
  ['--import', 'tsx', 'packages/server/src/cli/main.ts', 'openapi'],
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  },
);
const parsed = JSON.parse(document);
const ast = await openapiTS(parsed);
const banner = "// Generated from the server's /openapi.json by scripts/generate.mjs. Do not edit.\n";
mkdirSync(path.join(here, '../src/generated'), { recursive: true });
writeFileSync(path.join(here, '../src/generated/openapi.ts'), banner + astToString(ast));
writeFileSync(path.join(here, '../openapi.json'), `${JSON.stringify(parsed, null, 2)}\n`);
