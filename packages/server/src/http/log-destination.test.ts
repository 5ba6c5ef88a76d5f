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

/** A child that logs through `batchedStdout()` as `body` says (ESM; `log` is a pino logger). */
function child(body: string) {
  const script = `
    import pino from 'pino';
    import { batchedStdout, flushLogsNow } from ${JSON.stringify(destination.href)};
    const log = pino({ base: null, timestamp: false }, batchedStdout());
    ${body}`;
  return spawn(process.execPath, [...destination.nodeArgs, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
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
  const proc = child(`log.info('alone'); setTimeout(() => {}, 5000);`);
  const started = Date.now();
  const [chunk] = (await once(proc.stdout!, 'data')) as [Buffer];
  const waited = Date.now() - started;
  assert.equal(proc.exitCode, null, 'the line came before the process ended');
  assert.equal(JSON.parse(chunk.toString()).msg, 'alone');
  proc.kill();
  await once(proc, 'exit');
  // start-up included; the batch holds a line at most 200 ms
  assert.ok(waited < 4000, `the line took ${waited} ms`);
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
  const proc = child(`
    let n = 0;
    const timer = setInterval(() => { for (let i = 0; i < 200; i++) log.info({ n: n++ }, 'line'); }, 5);
    setTimeout(() => { clearInterval(timer); process.exit(0); }, 600);`);
  await once(proc.stdout!, 'data');
  proc.stdout!.destroy();
  const [code] = await once(proc, 'exit');
  assert.equal(code, 0);
});
