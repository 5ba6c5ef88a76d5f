/** sendctl run as a user runs it: a child process against the real server and a real BIND. */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BindServer, startBind } from '../../server/src/test-support/bind.js';
import { type ProcessResult, runProcess } from '../../server/src/test-support/processes.js';
import { startTestServer, type TestServer } from '../../server/src/test-support/test-server.js';
import { waitUntil } from '../../server/src/test-support/wait.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../server/src/test-support/webhook-receiver.js';

const bin = fileURLToPath(new URL('../bin/sendctl.mjs', import.meta.url));
let bind: BindServer;
let t: TestServer;
let receiver: WebhookReceiver;
let env: Record<string, string>;

before(async () => {
  bind = await startBind({ zones: ['cli.test'] });
  t = await startTestServer({
    DNS_RESOLVERS: bind.address,
    STATUS_CHECK_MAX_AGE_MS: '0',
    // the webhook receiver is on loopback; deliveries and their retries come within 0.2 s
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_INTERVAL_MS: '20',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_DELAY_MS: '200',
  });
  receiver = await startWebhookReceiver();
  env = { SERVICE_URL: t.url, SERVICE_API_KEY: (await t.createKey()).key };
});
after(async () => {
  await t.close();
  await receiver.close();
  await bind.close();
});

function sendctl(
  args: string[],
  extraEnv: Record<string, string> = {},
  onStart?: (child: ChildProcess) => void,
): Promise<ProcessResult> {
  return runProcess(
    process.execPath,
    [bin, ...args],
    { ...env, ...extraEnv },
    { ...(onStart && { onStart }) },
  );
}

describe('sendctl domains', () => {
  test('add shows the records to publish; records --format bind gives zone-file lines', async () => {
    const added = await sendctl(['domains', 'add', 'shop.cli.test', '--type', 'marketing']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /shop\.cli\.test \(Marketing\): publish these records/);
    assert.match(
      added.stdout,
      /CNAME\s+[a-z2-7]{32}\._domainkey\.shop\s+[a-z2-7]{32}\.dkim\.provider\.test\s+pending/,
    );
    assert.match(added.stdout, /TXT\s+_dmarc\.shop\s+"v=DMARC1; p=none;"\s+pending/);

    const bindFormat = await sendctl(['domains', 'records', 'shop.cli.test', '--format', 'bind']);
    assert.equal(bindFormat.code, 0, bindFormat.stderr);
    const lines = bindFormat.stdout.trim().split('\n');
    assert.equal(lines.length, 4);
    assert.match(
      lines[0]!,
      /^[a-z2-7]{32}\._domainkey\.shop\.cli\.test\.\t3600\tIN\tCNAME\t[a-z2-7]{32}\.dkim\.provider\.test\.$/,
    );
    assert.equal(lines[3], '_dmarc.shop.cli.test.\t3600\tIN\tTXT\t"v=DMARC1; p=none;"');
    // The lines are what a DNS server accepts: publish them through nsupdate and verify.
    await bind.update(
      'cli.test',
      lines.map((line) => `update add ${line.replace(/\tIN\t/, ' ').replace(/\t/g, ' ')}`),
    );
    const status = await sendctl(['domains', 'status', 'shop.cli.test', '--json']);
    assert.equal(JSON.parse(status.stdout)[0].data.status, 'verified');

    const json = JSON.parse(
      (await sendctl(['domains', 'records', 'shop.cli.test', '--format', 'json'])).stdout,
    );
    assert.equal(json.length, 4);
  });

  test('add --return-path adds the return-path CNAME to the records; a bad label exits 4 naming it', async () => {
    const added = await sendctl(['domains', 'add', 'rp.cli.test', '--return-path', 'bounces']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /CNAME\s+bounces\.rp\s+return-path\.dkim\.provider\.test\s+pending/);
    const bad = await sendctl(['domains', 'add', 'rp2.cli.test', '--return-path', 'two.labels']);
    assert.equal(bad.code, 4);
    assert.match(
      bad.stderr,
      /rp2\.cli\.test.*RETURN_PATH_INVALID|RETURN_PATH_INVALID.*rp2\.cli\.test|not one DNS label/,
    );
  });

  test('add --tracking adds the tracking host CNAME to the records; a bad label exits 4 naming it', async () => {
    const added = await sendctl(['domains', 'add', 'tr.cli.test', '--tracking', 'track']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /CNAME\s+track\.tr\s+track\.provider\.test\s+pending/);
    const bad = await sendctl(['domains', 'add', 'tr2.cli.test', '--tracking', 'two.labels']);
    assert.equal(bad.code, 4);
    assert.match(bad.stderr, /tr2\.cli\.test.*TRACKING_INVALID/);
  });

  test('status explains what is wrong; list and history show every domain', async () => {
    await sendctl(['domains', 'add', 'broken.cli.test']);
    const records = JSON.parse((await sendctl(['domains', 'records', 'broken.cli.test', '--json'])).stdout);
    await bind.addRecord(records[0].fqdn, 'CNAME', 'elsewhere.example.');
    const status = await sendctl(['domains', 'status', 'broken.cli.test']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /broken\.cli\.test\s+Transactional\s+pending\s+0\/3\s+pending/);
    assert.match(status.stdout, /CNAME \S+: wrong_value — the CNAME points to elsewhere\.example/);

    const list = await sendctl(['domains', 'list']);
    assert.match(list.stdout, /broken\.cli\.test/);
    assert.match(list.stdout, /shop\.cli\.test\s+Marketing\s+verified\s+3\/3\s+verified/);
    const history = await sendctl(['domains', 'history', 'shop.cli.test']);
    assert.match(history.stdout, /\(domain\)\s+pending\s+verified/);
  });

  test('wait shows each record not verified yet with its reason, until verified (exit 0), or gives up (exit 3)', async () => {
    await sendctl(['domains', 'add', 'slow.cli.test']);
    const records = JSON.parse((await sendctl(['domains', 'records', 'slow.cli.test', '--json'])).stdout);
    // Each record is published only once the wait has shown the one before it missing: published
    // on a timer from the spawn (300 ms apart), a child slow to start on a loaded machine made its
    // first check after all three were there, and never showed a record missing. The timeout is
    // far above what the wait takes; only a wait that never sees the records reaches it.
    let shown = '';
    let child: ChildProcess | undefined;
    const waiting = sendctl(
      ['domains', 'wait', 'slow.cli.test', '--interval', '200ms', '--timeout', '60s'],
      {},
      (started) => {
        child = started;
        started.stderr!.on('data', (d) => (shown += d));
      },
    );
    const drawn = (what: string, pattern: RegExp) =>
      waitUntil(
        what,
        () => {
          if (pattern.test(shown)) return true;
          if (child && (child.exitCode !== null || child.signalCode !== null))
            throw new Error(
              `sendctl ended (${child.exitCode ?? child.signalCode}) before showing ${what}: ${shown}`,
            );
          return undefined;
        },
        { seen: () => shown },
      );
    for (const [n, record] of records.slice(0, 3).entries()) {
      await drawn(`DKIM ${n}/3`, new RegExp(`slow\\.cli\\.test {2}pending {2}DKIM ${n}/3 `));
      await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    }
    const done = await waiting;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /waiting for 1 domain · next check in 0s/);
    assert.match(done.stderr, /slow\.cli\.test {2}pending {2}DKIM [0-2]\/3 {2}DMARC pending/);
    // the record still missing is named with the server's reason, not just counted
    assert.match(done.stderr, new RegExp(`CNAME +${records[2].fqdn.replaceAll('.', '\\.')} {2}not_found`));
    assert.match(done.stderr, /TXT +_dmarc\.slow\.cli\.test {2}not_found/);
    assert.match(done.stdout, /verified: slow\.cli\.test/);

    await sendctl(['domains', 'add', 'stuck.cli.test']);
    const stuck = await sendctl([
      'domains',
      'wait',
      'stuck.cli.test',
      '--interval',
      '100ms',
      '--timeout',
      '500ms',
    ]);
    assert.equal(stuck.code, 3);
    assert.match(stuck.stderr, /timed out after 500ms; still pending/);
  });

  /** A redraw of `domains wait`'s clock between checks: its seconds and its countdown. */
  const COUNTDOWN = /\[(\d+)s\] waiting for 1 domain · next check in (\d+)s/g;

  test('wait on a terminal redraws every second between checks; Ctrl-C prints where things stand (exit 130)', async () => {
    await sendctl(['domains', 'add', 'ctrlc.cli.test']);
    const waiting = sendctl(
      // a check every 60 s: no second check comes between the redraws looked at below, even on a
      // loaded machine that stalls the child for seconds
      ['domains', 'wait', 'ctrlc.cli.test', '--interval', '60s'],
      { SENDCTL_TTY: '1' },
      (child) => {
        let seen = '';
        const pressCtrlC = (data: Buffer) => {
          seen += data;
          // after the countdown's redraws at two seconds, with no check between them, press
          // Ctrl-C once
          const seconds = new Set([...seen.matchAll(COUNTDOWN)].map(([, elapsed]) => elapsed));
          if (seconds.size < 2) return;
          child.stderr!.off('data', pressCtrlC);
          child.kill('SIGINT');
        };
        child.stderr!.on('data', pressCtrlC);
      },
    );
    const interrupted = await waiting;
    assert.equal(interrupted.code, 130, interrupted.stderr);
    // Between checks the clock redraws each second and counts down from the 60 s interval. The
    // countdown starts when the first check has answered, which on a loaded machine comes after
    // the [0s] or even the [1s] redraw (those say "checking now"), and a redraw may then still
    // round to 60s: checked is its shape (seconds going up, the countdown going down), not values.
    const draws = [...interrupted.stderr.matchAll(COUNTDOWN)].map(([, elapsed, next]) => ({
      elapsed: Number(elapsed),
      next: Number(next),
    }));
    assert.equal(draws[0]?.next, 60, interrupted.stderr);
    // Every one of these redraws counts down to the same check (seconds waited plus seconds to
    // go stay within rounding of one another; a new check would add about 60): drawn between
    // checks, so by the clock, not by a check.
    const sums = draws.map((d) => d.elapsed + d.next);
    assert.ok(
      Math.max(...sums) - Math.min(...sums) <= 1,
      `not one check's countdown: ${JSON.stringify(draws)}`,
    );
    // Redraws in two different seconds, so the clock redrew between checks. Not asserted to be
    // exactly a second apart: on a loaded machine a tick of the child's 1 s timer can come seconds
    // late and skip a second. The loose bound still fails a clock that redraws only every 10 s.
    const [first, second] = [...new Set(draws.map((d) => d.elapsed))];
    assert.ok(second !== undefined && second > first!, JSON.stringify(draws));
    assert.ok(second - first! < 10, `redraws ${second - first!} s apart: ${JSON.stringify(draws)}`);
    assert.ok(
      draws.every((d, i) => i === 0 || (d.elapsed >= draws[i - 1]!.elapsed && d.next <= draws[i - 1]!.next)),
      `the clock went back or the countdown went up: ${JSON.stringify(draws)}`,
    );
    // each redraw goes back to the drawing's first line and clears below it
    assert.match(interrupted.stderr.replaceAll('\u001b', 'ESC'), /ESC\[\d+FESC\[J\[\d+s\]/);
    assert.match(interrupted.stderr, /interrupted after \d+s; where things stand:/);
    // lines are cut to the terminal's width (80 without one), so the redraw can count them
    assert.ok(
      interrupted.stderr.split('\n').every((line) => line.length < 160),
      'no line wraps twice',
    );
    assert.match(interrupted.stderr, / {2}CNAME +[a-z0-9]+\._domainkey\.ctrlc\.cli\.test {2}not_found/);
    // the summary: the status table and every record's full explanation
    assert.match(interrupted.stdout, /ctrlc\.cli\.test\s+Transactional\s+pending/);
    assert.match(interrupted.stdout, /not_found — no DMARC record at _dmarc\.ctrlc\.cli\.test/);
  });

  test('keys shows each selector’s role and key age; rotate asks for a rotation, a refused one exits 4 with the reason', async () => {
    // slow.cli.test was verified by the test above; once its next keys are confirmed:
    await t.server.dkim.generator.idle();
    const keys = await waitUntil('the next keys confirmed', async () => {
      const shown = await sendctl(['domains', 'keys', 'slow.cli.test']);
      return /next rotation: \d{4}-/.test(shown.stdout) ? shown : undefined;
    });
    assert.equal(keys.code, 0, keys.stderr);
    assert.match(keys.stdout, /^SELECTOR +STATE +KEY AGE +SINCE\n[a-z2-7]{32} +active +0 d +\d{4}-/);
    assert.equal(keys.stdout.match(/ next /g)?.length, 2);
    assert.match(keys.stdout, /last rotation: none yet/);

    const rotated = await sendctl(['domains', 'rotate', 'slow.cli.test']);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, /^slow\.cli\.test: signing moves to the next key at \d{4}-\d{2}-\d{2}T/);
    assert.match(rotated.stdout, /\(asked for at \d{4}-/);

    const refused = await sendctl(['domains', 'rotate', 'stuck.cli.test']);
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /^stuck\.cli\.test: .*\(DKIM_ROTATION_UNAVAILABLE\)/);
    const unknown = await sendctl(['domains', 'rotate', 'nobody.cli.test']);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /DKIM_ROTATION_DOMAIN_UNKNOWN/);
    const usage = await sendctl(['domains', 'rotate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /domains rotate needs exactly one domain/);
  });

  test('remove deletes; unknown or invalid domains exit 4 with the reason', async () => {
    await sendctl(['domains', 'add', 'gone.cli.test']);
    const removed = await sendctl(['domains', 'remove', 'gone.cli.test']);
    assert.equal(removed.code, 0);
    assert.match(removed.stdout, /deleted gone\.cli\.test/);
    const again = await sendctl(['domains', 'remove', 'gone.cli.test']);
    assert.equal(again.code, 4);
    assert.match(
      again.stderr,
      /gone\.cli\.test: gone\.cli\.test is not registered to this account \(DOMAIN_NOT_REGISTERED\)/,
    );
    const invalid = await sendctl(['domains', 'add', '192.0.2.1']);
    assert.equal(invalid.code, 4);
    assert.match(invalid.stderr, /DOMAIN_IP_ADDRESS/);
  });
});

describe('sendctl webhooks', () => {
  test('add prints the secret once, set apart; list, deliveries, retry, enable and rm', async () => {
    // an account of its own, so that list shows only this test's endpoint
    const own = { SERVICE_API_KEY: (await t.createKey({ name: 'webhooks' })).key };
    const added = await sendctl(['webhooks', 'add', receiver.url, '--events', 'domain.created'], own);
    assert.equal(added.code, 0, added.stderr);
    const id = /^added (whk_\w+): http:\/\/127\.0\.0\.1:\d+\/hooks$/m.exec(added.stdout)?.[1];
    assert.ok(id, added.stdout);
    assert.match(added.stdout, /^events: domain\.created$/m);
    assert.match(added.stdout, /signing secret \(shown only once: store it now/);
    assert.match(added.stdout, /^ {4}whsec_[A-Za-z0-9+/]+=*$/m, 'the secret on a line of its own');

    const list = await sendctl(['webhooks', 'list'], own);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^ID\s+URL\s+EVENTS\s+STATE\s+CREATED$/m);
    assert.match(
      list.stdout,
      new RegExp(`^${id}\\s+http://127\\.0\\.0\\.1:\\d+/hooks\\s+domain\\.created\\s+active\\s+\\d{4}-`, 'm'),
    );
    const listed = JSON.parse((await sendctl(['webhooks', 'list', '--json'], own)).stdout);
    assert.deepEqual(
      listed.map((e: { id: string; secret?: string }) => [e.id, e.secret]),
      [[id, undefined]],
      'no secret in the listing',
    );

    const none = await sendctl(['webhooks', 'deliveries', id], own);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout.trim(), 'no deliveries yet');
    await sendctl(['domains', 'add', 'hooked.cli.test'], own);
    const [delivery] = await waitUntil('domain.created delivered', async () => {
      const json = JSON.parse((await sendctl(['webhooks', 'deliveries', id, '--json'], own)).stdout);
      return json[0]?.status === 'delivered' ? json : undefined;
    });
    const deliveries = await sendctl(['webhooks', 'deliveries', id], own);
    assert.match(
      deliveries.stdout,
      /^ID\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST ATTEMPT\s+ANSWER\s+NEXT ATTEMPT$/m,
    );
    assert.match(
      deliveries.stdout,
      new RegExp(
        `^${delivery.id}\\s+domain\\.created\\s+delivered\\s+1\\s+\\S+\\s+204 in \\d+ ms\\s+-$`,
        'm',
      ),
    );

    // retried while the receiver answers 500: the failure and its reason show
    receiver.failing = true;
    const retried = await sendctl(['webhooks', 'retry', id, delivery.id], own);
    assert.equal(retried.code, 0, retried.stderr);
    assert.match(retried.stdout, new RegExp(`^${delivery.id} \\(domain\\.created\\) is due again now`));
    const failing = await waitUntil('the retry failed', async () => {
      const result = await sendctl(['webhooks', 'deliveries', id], own);
      return /\b500 in \d+ ms/.test(result.stdout) ? result : undefined;
    });
    receiver.failing = false;
    assert.match(
      failing.stdout,
      new RegExp(`^${delivery.id}\\s+domain\\.created\\s+pending\\s+(?:[2-9]|[1-9]\\d+)\\s`, 'm'),
    );
    assert.match(failing.stdout, new RegExp(`last errors:\\n {2}${delivery.id}: answered HTTP 500`));

    const enabled = await sendctl(['webhooks', 'enable', id], own);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.match(
      enabled.stdout,
      new RegExp(`^enabled ${id} \\(http://127\\.0\\.0\\.1:\\d+/hooks\\): its deliveries resume`),
    );

    const removed = await sendctl(['webhooks', 'rm', id], own);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.stdout.trim(), `deleted ${id}`);
    assert.equal((await sendctl(['webhooks', 'list'], own)).stdout.trim(), 'no webhooks');
  });

  test('add --json prints the API’s answer, secret included; --events picks the events', async () => {
    const added = await sendctl([
      'webhooks',
      'add',
      receiver.url,
      '--events',
      'domain.verified, Domain.Updated',
      '--json',
    ]);
    assert.equal(added.code, 0, added.stderr);
    const created = JSON.parse(added.stdout);
    assert.deepEqual(created.events, ['domain.verified', 'domain.updated']);
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(JSON.parse((await sendctl(['webhooks', 'rm', created.id, '--json'])).stdout), {
      id: created.id,
      deleted: true,
    });
  });

  test('unknown ids and refused URLs exit 4, naming each', async () => {
    for (const args of [
      ['rm', 'whk_nope'],
      ['enable', 'whk_nope'],
      ['deliveries', 'whk_nope'],
      ['retry', 'whk_nope', 'dlv_nope'],
    ]) {
      const result = await sendctl(['webhooks', ...args]);
      assert.equal(result.code, 4, args.join(' '));
      assert.match(result.stderr, /^\w+_nope: this account has no webhook whk_nope \(WEBHOOK_NOT_FOUND\)$/m);
      assert.equal(result.stdout, '');
    }
    const { id } = JSON.parse((await sendctl(['webhooks', 'add', receiver.url, '--json'])).stdout);
    const noDelivery = await sendctl(['webhooks', 'retry', id, 'dlv_nope']);
    assert.equal(noDelivery.code, 4);
    assert.match(
      noDelivery.stderr,
      new RegExp(`^dlv_nope: webhook ${id} has no delivery dlv_nope \\(WEBHOOK_DELIVERY_NOT_FOUND\\)$`, 'm'),
    );
    await sendctl(['webhooks', 'rm', id]);

    const refused = await sendctl(['webhooks', 'add', 'ftp://hooks.example.com/']);
    assert.equal(refused.code, 4);
    assert.match(
      refused.stderr,
      /^ftp:\/\/hooks\.example\.com\/: url must be an absolute .*\(WEBHOOK_URL_INVALID\)$/m,
    );
  });

  test('unknown events exit 2 listing the valid ones, before any request', async () => {
    // the server named cannot be reached: a request would exit 1
    const down = { SERVICE_URL: 'http://127.0.0.1:9' };
    for (const events of ['domain.create', 'domain.created,bounced', ' , ']) {
      const result = await sendctl(
        ['webhooks', 'add', 'https://hooks.example.com/', '--events', events],
        down,
      );
      assert.equal(result.code, 2, `${events}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /events are domain\.created \(registered\), domain\.updated \(.+\), domain\.verified \(.+\), domain\.deleted \(deleted\)/,
      );
    }
    const unknown = await sendctl(
      ['webhooks', 'add', 'https://h.example.com/', '--events', 'domain.created,bounced'],
      down,
    );
    assert.match(unknown.stderr, /^error: unknown event "bounced"; events are/m);
  });

  test('usage mistakes exit 2 with help; a browser (templates,images) key exits 1', async () => {
    for (const args of [
      ['webhooks'],
      ['webhooks', 'add'],
      ['webhooks', 'add', 'https://a.example.com/', 'https://b.example.com/'],
      ['webhooks', 'list', 'extra'],
      ['webhooks', 'retry', 'whk_x'],
      ['webhooks', 'frob'],
    ]) {
      const result = await sendctl(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: sendctl/);
    }
    assert.match((await sendctl(['--help'])).stdout, /webhooks add <url> \[--events/);

    const { key } = await t.createKey({ name: 'playground', scopes: ['templates', 'images'] });
    for (const args of [['list'], ['add', receiver.url], ['rm', 'whk_x']]) {
      const result = await sendctl(['webhooks', ...args], { SERVICE_API_KEY: key });
      assert.equal(result.code, 1, `webhooks ${args[0]}: ${result.stderr}`);
      assert.match(result.stderr, /limited to templates, images .*\(AUTH_SCOPE, HTTP 403\)/);
      assert.equal(result.stdout, '');
    }
  });
});

describe('sendctl emails and suppressions', () => {
  test('send --html-file queues from a verified domain, once per idempotency key; get lists the recipient; a scheduled send can be canceled', async () => {
    // an account of its own, so that its suppression list is its own
    const own = { SERVICE_API_KEY: (await t.createKey({ name: 'emails' })).key };
    const added = JSON.parse((await sendctl(['domains', 'add', 'send.cli.test', '--json'], own)).stdout);
    for (const record of added[0].data.records.filter((r: { type: string }) => r.type === 'CNAME'))
      await bind.addRecord(record.fqdn, 'CNAME', `${record.value}.`);
    // a timeout far above the wait (one check, the records are there): only a failure reaches it
    const waited = await sendctl(
      ['domains', 'wait', 'send.cli.test', '--interval', '100ms', '--timeout', '60s'],
      own,
    );
    assert.equal(waited.code, 0, waited.stderr);

    const dir = mkdtempSync(path.join(tmpdir(), 'sendctl-'));
    const html = path.join(dir, 'receipt.html');
    writeFileSync(html, '<p>Thank you!</p>');
    const message = ['--from', 'Shop <hi@send.cli.test>', '--to', 'ann@example.org', '--subject', 'Hi'];
    const args = ['emails', 'send', ...message, '--html-file', html, '--idempotency-key', 'cli-1'];
    const sent = await sendctl(args, own);
    assert.equal(sent.code, 0, sent.stderr);
    const id = /^(eml_\w+) queued$/.exec(sent.stdout.trim())?.[1];
    assert.ok(id, sent.stdout);
    const again = await sendctl([...args, '--json'], own);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { id, status: 'queued' });

    const got = await sendctl(['emails', 'get', id], own);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, new RegExp(`^${id}  \\w+  from hi@send\\.cli\\.test  "Hi"  created \\d{4}-`));
    assert.match(got.stdout, /^ADDRESS\s+KIND\s+STATUS\s+ATTEMPTS\s+LAST ANSWER\s+NEXT ATTEMPT$/m);
    assert.match(got.stdout, /^ann@example\.org\s+to\s+\w+\s+\d+\s+/m);
    const json = JSON.parse((await sendctl(['emails', 'get', id, '--json'], own)).stdout);
    assert.deepEqual(
      json.recipients.map((r: { address: string; kind: string }) => [r.address, r.kind]),
      [['ann@example.org', 'to']],
    );

    const unverified = await sendctl(
      ['emails', 'send', ...message, '--from', 'hi@unverified.cli.test', '--html-file', html],
      own,
    );
    assert.equal(unverified.code, 4);
    assert.match(
      unverified.stderr,
      /^emails send: unverified\.cli\.test is not a registered domain.*\(EMAIL_FROM_NOT_VERIFIED\)$/m,
    );
    assert.equal(unverified.stdout, '');
    const listed = await sendctl(['emails', 'list', '--to', 'ann@example.org', '--limit', '5'], own);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^ID\s+STATUS\s+CREATED\s+FROM\s+TO\s+SUBJECT$/m);
    assert.match(
      listed.stdout,
      new RegExp(`^${id}\\s+\\w+\\s+\\d{4}-.*hi@send\\.cli\\.test\\s+ann@example\\.org\\s+Hi$`, 'm'),
    );
    const listedJson = JSON.parse((await sendctl(['emails', 'list', '--json'], own)).stdout);
    assert.ok(listedJson.emails.some((e: { id: string }) => e.id === id));
    const badStatus = await sendctl(['emails', 'list', '--status', 'lost'], own);
    assert.equal(badStatus.code, 4);
    assert.match(badStatus.stderr, /^emails list: .*\(REQUEST_INVALID\)$/m);

    const at = new Date(Date.now() + 3_600_000).toISOString();
    const later = await sendctl(
      ['emails', 'send', ...message, '--html-file', html, '--scheduled-at', at],
      own,
    );
    assert.equal(later.code, 0, later.stderr);
    const laterId = /^(eml_\w+) scheduled$/.exec(later.stdout.trim())?.[1];
    assert.ok(laterId, later.stdout);
    const canceled = await sendctl(['emails', 'cancel', laterId], own);
    assert.equal(canceled.code, 0, canceled.stderr);
    assert.equal(canceled.stdout.trim(), `${laterId} canceled: it will not be sent`);
    const tooLate = await sendctl(['emails', 'cancel', laterId], own);
    assert.equal(tooLate.code, 4);
    assert.match(tooLate.stderr, new RegExp(`^${laterId}: .*\\(EMAIL_NOT_SCHEDULED\\)$`, 'm'));

    const unknown = await sendctl(['emails', 'get', 'eml_nope'], own);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /^eml_nope: this account has no email eml_nope \(EMAIL_NOT_FOUND\)$/m);

    const none = await sendctl(['suppressions', 'list'], own);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout.trim(), 'no suppressions');
    assert.deepEqual(
      JSON.parse((await sendctl(['suppressions', 'list', '--after', 'a@example.org', '--json'], own)).stdout),
      [],
    );
    const rm = await sendctl(['suppressions', 'rm', 'nobody@example.org'], own);
    assert.equal(rm.code, 4);
    assert.match(
      rm.stderr,
      /^nobody@example\.org: nobody@example\.org is not on this account's suppression list \(SUPPRESSION_NOT_FOUND\)$/m,
    );
  });

  test('send --track asks for what it names over the domain’s default: opens alone, or none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sendctl-'));
    const html = path.join(dir, 'news.html');
    writeFileSync(html, '<p>Read <a href="https://example.org/post">the post</a></p>');
    const base = ['emails', 'send', '--from', 'onboarding@sandbox.test', '--to', 'delivered@sandbox.test'];
    for (const [track, expected] of [
      ['opens', { opens: true, clicks: false }],
      ['none', { opens: false, clicks: false }],
    ] as const) {
      const sent = await sendctl([
        ...base,
        '--subject',
        `Track ${track}`,
        '--html-file',
        html,
        '--track',
        track,
      ]);
      assert.equal(sent.code, 0, sent.stderr);
      const id = /^(eml_\w+) queued$/.exec(sent.stdout.trim())?.[1];
      assert.ok(id, sent.stdout);
      const got = JSON.parse((await sendctl(['emails', 'get', id, '--json'])).stdout);
      assert.deepEqual(got.tracking, expected);
    }
  });

  test('usage mistakes, a missing or unreadable file among them, exit 2 before any request', async () => {
    // the server named cannot be reached: a request would exit 1
    const down = { SERVICE_URL: 'http://127.0.0.1:9' };
    const dir = mkdtempSync(path.join(tmpdir(), 'sendctl-'));
    const html = path.join(dir, 'body.html');
    writeFileSync(html, '<p>Hi</p>');
    const message = ['--from', 'hi@send.cli.test', '--to', 'ann@example.org', '--subject', 'Hi'];
    for (const [args, reason] of [
      [
        ['emails', 'send', ...message, '--html-file', path.join(dir, 'missing.html')],
        /--html-file .*missing\.html: cannot read it \(ENOENT\)/,
      ],
      [['emails', 'send', ...message, '--html-file', dir], /--html-file .*: cannot read it \(EISDIR\)/],
      [
        ['emails', 'send', ...message, '--html-file', html, '--text-file', path.join(dir, 'no.txt')],
        /--text-file .*no\.txt: cannot read it/,
      ],
      [['emails', 'send', ...message], /exactly one of --html-file and --template/],
      [
        ['emails', 'send', ...message, '--html-file', html, '--template', 'tpl_x'],
        /exactly one of --html-file and --template/,
      ],
      [
        ['emails', 'send', '--to', 'ann@example.org', '--subject', 'Hi', '--html-file', html],
        /needs --from, --to and --subject/,
      ],
      [
        ['emails', 'send', ...message, '--template', 'tpl_x', '--var', 'name'],
        /--var "name" is not name=value/,
      ],
      [
        ['emails', 'send', ...message, '--html-file', html, '--var', 'a=b'],
        /--var sets a variable of --template/,
      ],
      [
        ['emails', 'send', ...message, '--html-file', html, '--track', 'opens,none'],
        /--track takes opens, clicks, opens,clicks or none, not "opens,none"/,
      ],
      [['emails', 'get'], /emails get needs <id>/],
      [['emails', 'frob'], /unknown command "emails frob"/],
      [['suppressions', 'list', 'extra'], /suppressions list takes no arguments/],
      [['suppressions', 'rm'], /suppressions rm needs <address>/],
    ] as const) {
      const result = await sendctl([...args], down);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, reason);
      assert.match(result.stderr, /usage: sendctl/);
    }
    assert.match((await sendctl(['--help'])).stdout, /emails send --from <addr> --to <addr>/);
  });
});

describe('sendctl errors', () => {
  test('usage mistakes exit 2 with help', async () => {
    for (const args of [
      [],
      ['domains'],
      ['domains', 'add'],
      ['domains', 'add', 'x.cli.test', '--type', 'bulk'],
      ['domains', 'records', 'a', 'b'],
      ['domains', 'wait', 'x', '--timeout', 'soon'],
      ['frob'],
      ['domains', 'list', '--bogus'],
    ]) {
      const result = await sendctl(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: sendctl/);
    }
    assert.equal((await sendctl(['domains', 'list'], { SERVICE_API_KEY: '' })).code, 2);
    const help = await sendctl(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /domains wait/);
  });

  test('a bad key or an unreachable server exits 1 with a clear message', async () => {
    const bad = await sendctl(['domains', 'list'], { SERVICE_API_KEY: 'sk_nope' });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /the API key is unknown or revoked \(AUTH_INVALID, HTTP 401\)/);
    const down = await sendctl(['domains', 'list', '--url', 'http://127.0.0.1:9']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  test('a key scoped to templates,images exits 1 (request failed) from status and from wait alike', async () => {
    const { key } = await t.createKey({ name: 'playground', scopes: ['templates', 'images'] });
    for (const command of ['status', 'wait']) {
      const result = await sendctl(['domains', command, 'shop.cli.test', '--timeout', '5s'], {
        SERVICE_API_KEY: key,
      });
      assert.equal(result.code, 1, `domains ${command}: ${result.stderr}`);
      assert.match(result.stderr, /limited to templates, images .*\(AUTH_SCOPE, HTTP 403\)/);
      assert.equal(result.stdout, '');
    }
    const down = await sendctl(['domains', 'wait', 'shop.cli.test', '--url', 'http://127.0.0.1:9']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  test('wait exits 4 for names the API refuses (not registered, invalid), naming each', async () => {
    const result = await sendctl([
      'domains',
      'wait',
      'ghost.cli.test',
      'bad_name.cli.test',
      '--timeout',
      '5s',
    ]);
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, /^ghost\.cli\.test: .*\(DOMAIN_NOT_REGISTERED\)$/m);
    assert.match(result.stderr, /^bad_name\.cli\.test: .*underscore.*\(DOMAIN_\w+\)$/im);
    assert.equal(result.stdout, '');
    // --json: the API's envelopes of that poll, as `status --json` prints them.
    const json = await sendctl(['domains', 'wait', 'ghost.cli.test', '--json']);
    assert.equal(json.code, 4);
    assert.equal(JSON.parse(json.stdout)[0].error.code, 'DOMAIN_NOT_REGISTERED');
  });

  test('status of names that all failed prints nothing on stdout, only the reasons on stderr (exit 4)', async () => {
    const result = await sendctl(['domains', 'status', 'nope.example.com']);
    assert.equal(result.code, 4);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^nope\.example\.com: .*\(DOMAIN_NOT_REGISTERED\)$/m);
    // An account with no domains at all still says so.
    const { key } = await t.createKey({ name: 'empty' });
    const empty = await sendctl(['domains', 'status'], { SERVICE_API_KEY: key });
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout.trim(), 'no domains');
  });

  test('keys runs the server-side command against the server’s database', async () => {
    const created = await sendctl(['keys', 'create', '--name', 'from-sendctl', '--json'], {
      DATA_DIR: t.dataDir,
    });
    assert.equal(created.code, 0, created.stderr);
    const { key } = JSON.parse(created.stdout);
    const listed = await sendctl(['domains', 'list'], { SERVICE_API_KEY: key });
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, /no domains/);
  });

  test('dkim runs the server-side command: status of a registration, refusal to sign an unverified one', async () => {
    await sendctl(['domains', 'add', 'signer.cli.test']);
    const status = await sendctl(['dkim', 'status', '--domain', 'signer.cli.test', '--json'], {
      DATA_DIR: t.dataDir,
    });
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /signer\.cli\.test/);
    const sign = await sendctl(['dkim', 'sign', '--domain', 'signer.cli.test'], { DATA_DIR: t.dataDir });
    assert.equal(sign.code, 2);
    assert.match(sign.stderr, /not verified/i);
  });
});
