/**
 * The client as a user installs it: the packed tarball in a scratch project outside the
 * workspace. publint (strict) and arethetypeswrong find no problem; `require` and `import`
 * work in Node, proved by calling a running server, not by listing export names (issue 40: the
 * names were all there while `new ServiceClient()` crashed under `require`); the README's TypeScript blocks compile under `strict` with the bundler and
 * node16 resolutions, as ESM and as CommonJS, without the DOM library.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  workspaceBin as bin,
  compileInEverySetup,
  installPacked,
  readmeTypeScript,
  runOrFail as run,
  type ScratchInstall,
} from '../../email-builder/test-support/tarball.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/test-server.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let packed: ScratchInstall;

before(() => {
  packed = installPacked(packageDir, ['@types/node']);
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

  describe('against a running server', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    // Asynchronous: the server answers from this process while the consumer runs.
    const runNode = async (source: string, type: 'commonjs' | 'module', env: Record<string, string>) => {
      const { stdout } = await promisify(execFile)(process.execPath, [`--input-type=${type}`, '-e', source], {
        cwd: packed.project,
        env: { ...process.env, ...env },
      });
      return stdout.trim();
    };
    // The same program in both module systems: the class registers and lists a domain, the raw
    // openapi-fetch client reads it back.
    const program = (load: string) => `${load}
      const options = { baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY };
      const main = async () => {
        const client = new ServiceClient(options);
        const [registered] = await client.registerDomains([{ domain: process.env.DOMAIN, domainType: 'transactional' }]);
        const page = await client.listDomains();
        const { data } = await createApiClient(options).GET('/api/public/domain');
        console.log(JSON.stringify({ registered: registered.status, listed: page.domains.map((d) => d.domain), raw: data.data.domains.length }));
      };
      main().catch((error) => { console.error(error); process.exit(1); });`;

    for (const [type, load] of [
      ['commonjs', "const { ServiceClient, createApiClient } = require('@service/client');"],
      ['module', "import { ServiceClient, createApiClient } from '@service/client';"],
    ] as const) {
      it(`a ${type} consumer constructs the client and calls the API`, async () => {
        const { key } = await server.createKey();
        const domain = `${type}.tarball.test`;
        const out = await runNode(program(load), type, {
          BASE_URL: server.url,
          API_KEY: key,
          DOMAIN: domain,
        });
        assert.deepEqual(JSON.parse(out), { registered: 200, listed: [domain], raw: 1 });
      });
    }
  });

  it('compiles the README’s examples under strict, bundler and node16, ESM and CommonJS, without the DOM', () => {
    const blocks = readmeTypeScript(path.join(packageDir, 'README.md'));
    assert.ok(blocks.length >= 3, `README blocks found: ${blocks.length}`);
    compileInEverySetup(packed.project, blocks, { lib: ['es2023'], types: ['node'] });
  });
});
