/**
 * Sessions kept and reused (issue 35), against smtp-server MXes on loopback that log every
 * command each session sends: how many sessions a burst opens, what each carries, that each
 * ends with QUIT, and the waits RFC 5321 gives the end of the message.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { waitUntil } from '../test-support/wait.js';
import {
  IDLE_MS,
  PAUSE_AFTER_FAILURES,
  PAUSED,
  type SessionSettings,
  SmtpSessions,
} from './smtp-sessions.js';

/** An MX on 127.0.0.1 that records each session's commands, in order, and every message. */
async function loggingMx(options: Partial<SMTPServerOptions> = {}) {
  const sessions = new Map<string, string[]>();
  const received: string[] = [];
  const record = (meta: { cid?: string; command?: string }) => {
    if (!meta?.cid || !meta.command) return;
    const commands = sessions.get(meta.cid) ?? [];
    commands.push(meta.command);
    sessions.set(meta.cid, commands);
  };
  const quiet = () => {};
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: { debug: record, info: quiet, warn: quiet, error: quiet, trace: quiet, fatal: quiet } as never,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        done();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    destination: { host: 'mx.test', address: '127.0.0.1', port, tls: 'may' as const },
    sessions,
    received,
    /** Each session's commands, MAIL FROM counted as transactions. */
    summary: () =>
      [...sessions.values()].map((c) => ({
        mails: c.filter((x) => x === 'MAIL').length,
        quit: c.at(-1) === 'QUIT',
      })),
  };
}

const settings = (overrides: Partial<SessionSettings> = {}): SessionSettings => ({
  heloName: 'sender.test',
  timeoutMs: 5_000,
  dataDoneTimeoutMs: 600_000,
  limits: { perDestination: 3, messagesPerSession: 100 },
  ...overrides,
});

const message = (n: number) => Buffer.from(`Subject: message ${n}\r\n\r\nHello ${n}\r\n`);
const envelope = (n: number) => ({ from: `bounce+${n}@sender.test`, to: `reader${n}@mx.test` });

test('a burst of 20 transactions to one MX opens at most the limit of sessions, each reused, each ended with QUIT', async () => {
  const mx = await loggingMx();
  const sessions = new SmtpSessions(settings());
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, n) => sessions.transaction(mx.destination, envelope(n), message(n))),
  );
  assert.deepEqual(
    results.map((r) => r.ok),
    Array(20).fill(true),
  );
  assert.equal(mx.received.length, 20);
  await sessions.close();
  await waitUntil('every session ended', () => mx.summary().every((s) => s.quit) || undefined);
  const summary = mx.summary();
  assert.ok(summary.length <= 3, `${summary.length} sessions for 20 messages`);
  assert.equal(
    summary.reduce((sum, s) => sum + s.mails, 0),
    20,
  );
  assert.ok(
    results.some((r) => r.ok && r.reused),
    'some transaction went on a session kept from an earlier one',
  );
});

test('a refused recipient leaves the session usable: RSET, and the next message goes on it', async () => {
  const mx = await loggingMx({
    onRcptTo(address, _session, done) {
      if (address.address.startsWith('gone'))
        done(Object.assign(new Error('5.1.1 no such user'), { responseCode: 550 }));
      else done();
    },
  });
  const sessions = new SmtpSessions(settings({ limits: { perDestination: 1, messagesPerSession: 100 } }));
  const refused = await sessions.transaction(
    mx.destination,
    { from: 'b@sender.test', to: 'gone@mx.test' },
    message(1),
  );
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.error.responseCode, 550);
  const sent = await sessions.transaction(mx.destination, envelope(2), message(2));
  assert.deepEqual([sent.ok, sent.ok && sent.reused], [true, true]);
  await sessions.close();
  await waitUntil('the session ended', () => mx.summary()[0]?.quit || undefined);
  assert.deepEqual(
    [...mx.sessions.values()],
    [['EHLO', 'MAIL', 'RCPT', 'RSET', 'MAIL', 'RCPT', 'DATA', 'QUIT']],
  );
});

test('a session carries at most its message limit, then QUIT, and a new one takes the rest', async () => {
  const mx = await loggingMx();
  const sessions = new SmtpSessions(settings({ limits: { perDestination: 1, messagesPerSession: 2 } }));
  for (let n = 0; n < 5; n++)
    assert.equal((await sessions.transaction(mx.destination, envelope(n), message(n))).ok, true);
  await sessions.close();
  await waitUntil(
    'every session ended',
    () => (mx.summary().length === 3 && mx.summary().every((s) => s.quit)) || undefined,
  );
  assert.deepEqual(
    mx.summary().map((s) => s.mails),
    [2, 2, 1],
  );
});

test(`an idle session ends with QUIT after ${IDLE_MS} ms; one the server closed is replaced without a failure`, async () => {
  // The server drops sessions idle for 300 ms (its own timeout, as busy MXes do).
  const mx = await loggingMx({ socketTimeout: 300 });
  const sessions = new SmtpSessions(settings());
  assert.equal((await sessions.transaction(mx.destination, envelope(1), message(1))).ok, true);
  await new Promise((resolve) => setTimeout(resolve, 700));
  const next = await sessions.transaction(mx.destination, envelope(2), message(2));
  assert.deepEqual([next.ok, next.ok && next.reused], [true, false]);
  assert.equal(mx.received.length, 2);

  const patient = await loggingMx();
  assert.equal((await sessions.transaction(patient.destination, envelope(3), message(3))).ok, true);
  // a generous bound (it was IDLE_MS * 5): on a loaded machine the idle timer's QUIT can come
  // seconds late; close(), which would QUIT too, comes only after it
  await waitUntil('the idle session’s QUIT', () => patient.summary()[0]?.quit || undefined, IDLE_MS * 15);
  await sessions.close();
});

/**
 * A command timeout for tests that need one shorter than something the MX does: long enough
 * that the commands around it (greeting, EHLO, MAIL, RCPT, from an MX in this process) never
 * reach it on a loaded machine, which can stall the process for seconds (0.5 s and 0.3 s did).
 */
const COMMAND_MS = 5_000;
/**
 * What the MX takes over the step under test: past the command timeout. Both timers run in this
 * process, and a timer of it due later fires later however it is stalled: a client that waited
 * only `COMMAND_MS` there would time out first, whatever the margin.
 */
const SLOW_MS = COMMAND_MS + 1_000;

test(`the reply to the final "." is given its own wait: a ${SLOW_MS / 1000} s scan passes a ${COMMAND_MS / 1000} s command timeout, once`, async () => {
  const mx = await loggingMx({
    onData(stream, _session, done) {
      stream.on('data', () => {});
      stream.on('end', () => setTimeout(() => done(), SLOW_MS));
    },
  });
  const patient = new SmtpSessions(settings({ timeoutMs: COMMAND_MS, dataDoneTimeoutMs: 60_000 }));
  const sent = await patient.transaction(mx.destination, envelope(1), message(1));
  assert.equal(sent.ok, true, JSON.stringify(sent));
  await patient.close();

  // A wait shorter than the scan: the message went, no reply came, and that is said.
  const hasty = new SmtpSessions(settings({ timeoutMs: COMMAND_MS, dataDoneTimeoutMs: 300 }));
  const unsure = await hasty.transaction(mx.destination, envelope(2), message(2));
  assert.equal(unsure.ok, false);
  assert.equal(!unsure.ok && unsure.afterData, true);
  await hasty.close();
});

test('a session that times out before the message is handed over is not counted as "may have accepted"', async () => {
  const mx = await loggingMx({
    onMailFrom(_address, _session, done) {
      setTimeout(() => done(), SLOW_MS);
    },
  });
  const sessions = new SmtpSessions(settings({ timeoutMs: COMMAND_MS }));
  const result = await sessions.transaction(mx.destination, envelope(1), message(1));
  assert.equal(result.ok, false);
  assert.deepEqual([!result.ok && result.afterData, !result.ok && result.error.code], [false, 'ETIMEDOUT']);
  // the timeout was MAIL's, the step the MX held (the commands before it were answered)
  assert.deepEqual([...mx.sessions.values()], [['EHLO', 'MAIL']]);
  await sessions.close();
});

test(`a host failing ${PAUSE_AFTER_FAILURES} times in a row is paused: the next transactions fail at once, without connecting`, async () => {
  let connections = 0;
  const mx = await loggingMx({
    onConnect(_session, done) {
      connections++;
      done(Object.assign(new Error('4.7.0 too busy'), { responseCode: 421 }));
    },
  });
  const sessions = new SmtpSessions(settings());
  for (let n = 0; n < PAUSE_AFTER_FAILURES; n++) {
    const result = await sessions.transaction(mx.destination, envelope(n), message(n));
    assert.equal(!result.ok && result.error.responseCode, 421);
  }
  const paused = await Promise.all(
    [1, 2, 3].map((n) => sessions.transaction(mx.destination, envelope(n), message(n))),
  );
  for (const result of paused) {
    assert.equal(!result.ok && result.error.code, PAUSED);
    assert.match(
      !result.ok ? result.error.message : '',
      /is paused for 30 s after 3 failures in a row \(the last: 421 /,
    );
  }
  assert.equal(connections, PAUSE_AFTER_FAILURES);
  await sessions.close();
});

test('failed connections are counted out once: after two refused greetings a burst still keeps to the limit', async () => {
  let connections = 0;
  const live = new Set<string>();
  let most = 0;
  const mx = await loggingMx({
    onConnect(session, done) {
      if (++connections <= 2) return done(Object.assign(new Error('4.7.0 busy'), { responseCode: 421 }));
      live.add(session.id);
      most = Math.max(most, live.size);
      done();
    },
    onClose(session) {
      live.delete(session.id);
    },
  });
  const sessions = new SmtpSessions(settings({ limits: { perDestination: 1, messagesPerSession: 100 } }));
  for (let n = 0; n < 2; n++)
    assert.equal((await sessions.transaction(mx.destination, envelope(n), message(n))).ok, false);
  const burst = await Promise.all(
    Array.from({ length: 6 }, (_, n) => sessions.transaction(mx.destination, envelope(n), message(n))),
  );
  assert.deepEqual(
    burst.map((r) => r.ok),
    Array(6).fill(true),
  );
  assert.equal(most, 1, `${most} sessions at once with a limit of 1`);
  await sessions.close();
});

test('one 421 halves the sessions a destination may open at once: a burst after it opens 2 of 4, not 3', async () => {
  let connections = 0;
  const mx = await loggingMx({
    onConnect(_session, done) {
      if (++connections === 1)
        return done(Object.assign(new Error('4.7.0 too many connections, slow down'), { responseCode: 421 }));
      done();
    },
  });
  const sessions = new SmtpSessions(settings({ limits: { perDestination: 4, messagesPerSession: 100 } }));
  const refused = await sessions.transaction(mx.destination, envelope(0), message(0));
  assert.equal(!refused.ok && refused.error.responseCode, 421);
  const burst = Array.from({ length: 8 }, (_, n) =>
    sessions.transaction(mx.destination, envelope(n), message(n)),
  );
  // the sessions the burst opens are counted as it starts, before any connects
  assert.equal(sessions.stats().mostPerDestination, 2);
  assert.deepEqual(
    (await Promise.all(burst)).map((r) => r.ok),
    Array(8).fill(true),
  );
  await sessions.close();
});
