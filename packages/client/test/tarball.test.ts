/**
 * The client as a user installs it: the packed tarball in a scratch project outside the
 * workspace. publint (strict) and arethetypeswrong find no problem; `require` and `import`
 * work in Node; the README's TypeScript blocks compile under `strict` with the bundler and
 * node16 resolutions, as ESM and as CommonJS, without the DOM library.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  workspaceBin as bin,
  installPacked,
  runOrFail as run,
  type ScratchInstall,
} from '../../email-builder/test-support/tarball.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let packed: ScratchInstall;

/** The README's ```ts blocks. */
function readmeBlocks(): string[] {
  const readme = readFileSync(path.join(packageDir, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A block as a module: its imports on top, the rest in an async function (CommonJS has no top-level await). */
function asModule(block: string): string {
  const lines = block.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\nexport async function example(): Promise<void> {\n${body.join('\n')}\n}\n`;
}

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
    const blocks = readmeBlocks();
    assert.ok(blocks.length >= 3, `README blocks found: ${blocks.length}`);
    const setups = [
      { name: 'bundler-esm', type: 'module', module: 'esnext', resolution: 'bundler' },
      { name: 'node16-esm', type: 'module', module: 'node16', resolution: 'node16' },
      { name: 'node16-cjs', type: 'commonjs', module: 'node16', resolution: 'node16' },
      { name: 'bundler-cjs', type: 'commonjs', module: 'esnext', resolution: 'bundler' },
    ];
    for (const setup of setups) {
      const dir = path.join(packed.project, setup.name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: setup.type }));
      const files = blocks.map((block, i) => {
        writeFileSync(path.join(dir, `example${i}.ts`), asModule(block));
        return `example${i}.ts`;
      });
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module: setup.module,
            moduleResolution: setup.resolution,
            lib: ['es2023'],
            types: ['node'],
            skipLibCheck: false,
          },
          files,
        }),
      );
      run(path.join(packed.project, 'node_modules/.bin/tsc'), ['-p', dir], dir);
    }
  });
});
