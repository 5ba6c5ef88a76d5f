/**
 * The client as a user installs it: the packed tarball in a scratch project outside the
 * workspace. publint (strict) and arethetypeswrong find no problem; `require` and `import`
 * work in Node; the README's TypeScript blocks compile under `strict` with the bundler and
 * node16 resolutions, as ESM and as CommonJS, without the DOM library.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  workspaceBin as bin,
  compileInEverySetup,
  installPacked,
  readmeTypeScript,
  runOrFail as run,
  type ScratchInstall,
} from '../../email-builder/test-support/tarball.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let packed: ScratchInstall;

before(() => {
  packed = installPacked(packageDir, ['@types/node', 'typescript']);
});

after(() => packed.remove());

describe('the packed @service/client', () => {
  it('passes publint --strict and arethetypeswrong', () => {
    run(
      bin('publint'),
      ['--strict', path.join(packed.project, 'node_modules/@service/client')],
      packed.project,
    );
    run(bin('attw'), [packed.tarball], packed.project);
  });

  it('loads with require and with import in Node', () => {
    const project = packed.project;
    const names = (source: string, type: 'commonjs' | 'module') =>
      run(process.execPath, [`--input-type=${type}`, '-e', source], project).trim();
    const expected =
      'ItemFailedError,ServiceApiError,ServiceClient,VerificationTimeoutError,createApiClient,zoneFileLines';
    assert.equal(
      names("console.log(Object.keys(require('@service/client')).sort().join())", 'commonjs'),
      expected,
    );
    assert.equal(
      names("const m = await import('@service/client'); console.log(Object.keys(m).sort().join())", 'module'),
      expected,
    );
    assert.match(names("console.log(require('@service/client/openapi.json').openapi)", 'commonjs'), /^3\./);
  });

  it('compiles the README’s examples under strict, bundler and node16, ESM and CommonJS, without the DOM', () => {
    const blocks = readmeTypeScript(path.join(packageDir, 'README.md'));
    assert.ok(blocks.length >= 3, `README blocks found: ${blocks.length}`);
    compileInEverySetup(packed.project, blocks, { lib: ['es2023'], types: ['node'] });
  });
});
