// test-backends: sqlite (the quick start runs on the embedded default, and its CLI shares the server's DATA_DIR)
/**
 * The README's quick start as a newcomer pastes it (issue 40): every `sh` block of the section,
 * in order, each command as written, in one shell whose variables carry over from block to
 * block (`export KEY=…` in step 2 is the `$KEY` of step 3), against a freshly started server.
 * Only what cannot run on a machine without public DNS is skipped, each with its reason printed;
 * `npm start` is the test's own start of the built server, on a free port the commands are
 * pointed at instead of 3000. A command that fails, or a JSON answer whose envelope holds an
 * error, fails the test with the command and its output.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot, type ServerProcess, startServerProcess } from './test-support/processes.js';
import { waitUntil } from './test-support/wait.js';

/** Commands the walk does not run, and why (printed). */
const SKIPPED: [RegExp, string][] = [
  [/^npm ci && npm start\b/, 'the test has installed, built and started the server itself'],
  [/^npx sendctl domains wait /, 'waits for verification, which needs the records in public DNS'],
  [
    /^npx sendctl webhooks add https:\/\/hooks\.example\.com/,
    'the endpoint must resolve in public DNS (WEBHOOK_URL_UNRESOLVABLE here)',
  ],
  [/^npx sendctl emails send --from hi@news\.example\.com/, 'sends from a domain verified in public DNS'],
];

/** The quick start's `sh` blocks, each as its logical commands (continuation lines joined). */
function quickStartCommands(): string[][] {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.map((block) => {
    const commands: string[] = [];
    let current = '';
    for (const line of block.split('\n')) {
      if (current === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
      current += `${line}\n`;
      // a command goes on after a trailing backslash, or inside an open single quote
      const open = (current.match(/'/g)?.length ?? 0) % 2 === 1;
      if (!line.endsWith('\\') && !open) {
        commands.push(current.trimEnd());
        current = '';
      }
    }
    return commands;
  });
}

let server: ServerProcess;
let dataDir: string;
let workDir: string;

before(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'readme-walk-data-'));
  server = await startServerProcess({ DATA_DIR: dataDir, SEND_INTERVAL_MS: '50' });
  // The repository root as a newcomer's shell sees it, in a directory of its own so that the
  // files the commands write (hi.html) land there and not in the checkout.
  workDir = mkdtempSync(path.join(tmpdir(), 'readme-walk-'));
  for (const entry of ['package.json', 'node_modules', 'packages', 'scripts'])
    symlinkSync(path.join(repoRoot, entry), path.join(workDir, entry));
});

after(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

/** Runs one command in bash with the variables the earlier ones exported; keeps what it exports. */
function runInShell(command: string, envFile: string): { code: number; stdout: string; stderr: string } {
  const script = `set -o pipefail\nsource ${JSON.stringify(envFile)}\n${command}\nstatus=$?\nexport -p > ${JSON.stringify(envFile)}\nexit $status\n`;
  const result = spawnSync('bash', ['-c', script], {
    cwd: workDir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    timeout: 120_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The envelopes of a JSON answer that carry an error (`[]` when it is not JSON). */
function errorsIn(output: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return [];
  }
  return [parsed]
    .flat()
    .filter((e): e is { error: unknown } => typeof e === 'object' && e !== null && 'error' in e)
    .filter((e) => e.error !== null);
}

test('the quick start runs as pasted, one shell from step 2 to the last step', async () => {
  const envFile = path.join(workDir, '.env.sh');
  writeFileSync(envFile, '');
  const blocks = quickStartCommands();
  assert.ok(blocks.length >= 6, `quick start blocks found: ${blocks.length}`);
  let ran = 0;
  for (const command of blocks.flat()) {
    const skip = SKIPPED.find(([pattern]) => pattern.test(command));
    if (skip) {
      console.log(`skipped: ${command.split('\n')[0]}\n  because ${skip[1]}`);
      continue;
    }
    const pointed = command.replaceAll('http://127.0.0.1:3000', server.url);
    const result = runInShell(pointed, envFile);
    assert.equal(result.code, 0, `${command}\nexited ${result.code}\n${result.stdout}${result.stderr}`);
    assert.deepEqual(errorsIn(result.stdout), [], `${command}\nanswered\n${result.stdout}`);
    ran++;
  }
  assert.ok(ran >= 10, `commands run: ${ran}`);

  // What the walk left behind is what the README says: the sandbox captured the first emails,
  // the domains are registered, and the playground's key is in the same account as $KEY.
  const env = readFileSync(envFile, 'utf8');
  const key = /declare -x KEY="(sk_[^"]+)"/.exec(env)?.[1];
  assert.ok(key, 'step 2 exported KEY');
  const call = async (route: string) =>
    (await fetch(`${server.url}${route}`, { headers: { authorization: key } })).json() as Promise<any>;
  const inbox = await waitUntil('both sandbox sends captured', async () => {
    const page = await call('/api/public/sandbox/messages');
    // the send from acme.test lands there too, once its keys are made: seconds, or a retry later
    const fromSandbox = page.data.messages.filter((m: any) => m.from.includes('@sandbox.test'));
    return fromSandbox.length >= 2 ? fromSandbox : undefined;
  });
  assert.deepEqual(
    inbox.map((m: any) => m.authentication.dmarc.result),
    ['pass', 'pass'],
  );
  const listed = await call('/api/public/domain');
  assert.deepEqual(
    listed.data.domains.map((d: any) => d.domain),
    ['acme.test', 'mail.example.com', 'news.example.com'],
  );
  // acme.test verified in the local DNS that `npm start` runs in development (issue 40)
  const acme = listed.data.domains.find((d: any) => d.domain === 'acme.test');
  assert.equal(acme.status, 'verified', JSON.stringify(acme.records));
  assert.ok(
    acme.records.every((r: any) => r.status === 'verified'),
    JSON.stringify(acme.records),
  );
  const sent = await call('/api/public/emails?domain=acme.test');
  assert.equal(sent.data.emails.length, 1, 'the send from acme.test was accepted');
  const keys = spawnSync('npm', ['run', '--silent', 'cli', '--', 'keys', 'list', '--json'], {
    cwd: workDir,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  const accounts = new Set(JSON.parse(keys.stdout).map((k: any) => k.accountId));
  assert.equal(accounts.size, 1, `the playground key joined $KEY's account: ${keys.stdout}`);
});
