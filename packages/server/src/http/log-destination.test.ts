/**
 * The batched log destination, in a child process writing to a real pipe: every line arrives,
 * in order, when the process exits; a lone line arrives without waiting for more; a closed
 * pipe stops the logging, not the process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { childImport } from '../test-support/child-import.js';

const destination = childImport(import.meta.url, './log-destination.ts');

/**
 * A child that logs through `batchedStdout()` as `body` says (ESM; `log` is a pino logger);
 * `stdin` gives it a pipe from this process as its stdin.
 */
function child(body: string, { stdin = false } = {}) {
  const script = `
    import pino from 'pino';
    import { batchedStdout, flushLogsNow } from ${JSON.stringify(destination.href)};
    const log = pino({ base: null, timestamp: false }, batchedStdout());
    ${body}`;
  return spawn(process.execPath, [...destination.nodeArgs, '--input-type=module', '-e', script], {
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'],
  });
}

async function output(proc: ReturnType<typeof child>): Promise<{ lines: string[]; code: number | null }> {
  let text = '';
  proc.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const [code] = await once(proc, 'exit');
  return { lines: text.split('\n').filter(Boolean), code };
}

test('every line written before the process exits arrives, in order', async () => {
  const { lines, code } = await output(
    child(`for (let n = 0; n < 5000; n++) log.info({ n }, 'line'); process.exit(0);`),
  );
  assert.equal(code, 0);
  assert.equal(lines.length, 5000);
  assert.deepEqual(
    lines.map((line) => JSON.parse(line).n),
    Array.from({ length: 5000 }, (_, n) => n),
  );
});

test('a lone line is written within the flush interval, while the process runs on', async () => {
  // The child says when it logged, so that its start-up (seconds on a loaded machine) is not
  // counted; and it runs on for a minute, far beyond that bound, so that a line written only at
  // its exit could not arrive in time.
  const proc = child(`log.info({ at: Date.now() }, 'alone'); setTimeout(() => {}, 60_000);`);
  const [chunk] = (await once(proc.stdout!, 'data')) as [Buffer];
  const arrived = Date.now();
  assert.equal(proc.exitCode, null, 'the line came before the process ended');
  const line = JSON.parse(chunk.toString());
  assert.equal(line.msg, 'alone');
  proc.kill();
  await once(proc, 'exit');
  // The batch holds a line at most 200 ms; the bound leaves seconds for a loaded machine, which
  // can stall the child's timer or this process's read, and is still far below the minute the
  // child runs on.
  const waited = arrived - line.at;
  assert.ok(waited < 10_000, `the line took ${waited} ms`);
});

test('flushLogsNow writes what is kept before a line written directly after it', async () => {
  const { lines } = await output(
    child(
      `log.info('kept'); flushLogsNow(log); process.stdout.write('after\\n'); setTimeout(() => process.exit(0), 50);`,
    ),
  );
  assert.deepEqual(lines, ['{"level":30,"msg":"kept"}', 'after']);
});

test('a closed pipe ends the logging, not the process', async () => {
  // The child logs on for 600 ms after it is told (its stdin ends) that the pipe is closed. It
  // used to stop 600 ms after it started, which on a loaded machine could come before this
  // process read the first line and closed the pipe: the test then showed nothing of a closed pipe.
  const proc = child(
    `
    let n = 0;
    const timer = setInterval(() => { for (let i = 0; i < 200; i++) log.info({ n: n++ }, 'line'); }, 5);
    process.stdin.on('end', () => setTimeout(() => { clearInterval(timer); process.exit(0); }, 600));
    process.stdin.resume();`,
    { stdin: true },
  );
  await once(proc.stdout!, 'data');
  proc.stdout!.destroy();
  proc.stdin!.end();
  const [code] = await once(proc, 'exit');
  assert.equal(code, 0);
});
