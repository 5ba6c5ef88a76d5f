import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import { childImport } from './child-import.js';
import { addressesOnLoopback, claimLoopbackAddress, isLoopbackClaimed } from './loopback.js';
import { type PostfixServer, startPostfix } from './postfix.js';

/** Whether `lo` holds `address` right now. */
function onLoopback(address: string): boolean {
  return addressesOnLoopback().has(address);
}

/** A pid that is gone or a zombie no longer runs. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A plain SMTP client to an MX: no TLS offered there, no AUTH. */
function mxClient(mx: PostfixServer) {
  return nodemailer.createTransport({
    host: mx.address,
    port: mx.port,
    ignoreTLS: true,
    name: 'client.test',
  });
}

function mail(to: string, subject = 'hello') {
  return { from: 'app@sender.test', to, subject, text: `body of ${subject}\n` };
}

/** The SMTP error nodemailer rejects with. */
interface SmtpError {
  responseCode?: number;
  response?: string;
  code?: string;
}

describe('an MX instance', () => {
  let mx: PostfixServer;
  let startMs = 0;
  before(async () => {
    const t0 = performance.now();
    mx = await startPostfix({ domains: ['example.test', 'other.test'] });
    startMs = performance.now() - t0;
  });
  after(() => mx?.close());

  test('listens on port 25 of its own loopback address and delivers into its Maildir', async (t) => {
    t.diagnostic(`postfix (MX) started and greeted in ${startMs.toFixed(0)} ms`);
    assert.match(mx.address, /^127\.0\.25\.\d+$/);
    assert.equal(mx.port, 25);
    assert.ok(onLoopback(mx.address));
    const info = await mxClient(mx).sendMail(mail('Alice@example.test', 'first'));
    assert.deepEqual(info.rejected, []);
    const [message] = await mx.waitForMessages(1);
    assert.equal(message!.recipient, 'Alice@example.test');
    assert.equal(message!.sender, 'app@sender.test');
    const raw = message!.raw.toString('utf8');
    assert.match(raw, /^Subject: first$/m);
    assert.match(raw, /by mx-127-0-25-\d+\.postfix\.test \(Postfix\)/);
  });

  test('accepts any local part of every domain, one Maildir file per recipient', async () => {
    const before = (await mx.messages()).length;
    await mxClient(mx).sendMail({ ...mail('x@other.test', 'two'), cc: 'y.z+tag@example.test' });
    const messages = (await mx.waitForMessages(before + 2)).slice(before);
    assert.deepEqual(messages.map((m) => m.recipient).sort(), ['x@other.test', 'y.z+tag@example.test']);
  });

  test('refuses to relay for other domains', async () => {
    await assert.rejects(mxClient(mx).sendMail(mail('someone@elsewhere.test')), (error: SmtpError) => {
      assert.equal(error.responseCode, 554);
      assert.match(error.response ?? '', /Relay access denied/);
      return true;
    });
  });

  test('rejects a recipient with the configured reply until it is accepted again', async () => {
    await mx.rejectRecipient('bob@example.test', '550 5.1.1 no such user');
    await assert.rejects(mxClient(mx).sendMail(mail('bob@example.test')), (error: SmtpError) => {
      assert.equal(error.responseCode, 550);
      assert.equal(error.response, '550 5.1.1 <bob@example.test>: Recipient address rejected: no such user');
      return true;
    });
    // a second change within the same second takes effect too (a hash map's mtime has 1 s resolution)
    await mx.rejectRecipient('bob@example.test', '450 4.2.0 try later');
    await assert.rejects(mxClient(mx).sendMail(mail('Bob@Example.test')), (error: SmtpError) => {
      assert.equal(error.responseCode, 450);
      assert.match(error.response ?? '', /^450 4\.2\.0 .*try later$/);
      return true;
    });
    // other recipients are unaffected
    const count = (await mx.messages()).length;
    await mxClient(mx).sendMail(mail('carol@example.test', 'carol'));
    await mx.acceptRecipient('bob@example.test');
    await mxClient(mx).sendMail(mail('bob@example.test', 'bob'));
    const delivered = (await mx.waitForMessages(count + 2)).slice(count);
    assert.deepEqual(delivered.map((m) => m.recipient).sort(), ['bob@example.test', 'carol@example.test']);
  });

  test('rejects a whole domain', async () => {
    await mx.rejectRecipient('other.test', '550 5.7.1 domain closed');
    await assert.rejects(mxClient(mx).sendMail(mail('anyone@other.test')), { responseCode: 550 });
    await mx.acceptRecipient('other.test');
    await mxClient(mx).sendMail(mail('anyone@other.test'));
  });

  test('throws on a caller mistake', async () => {
    await assert.rejects(mx.rejectRecipient('bob@example.test', '250 ok'), RangeError);
    await assert.rejects(mx.rejectRecipient('not an address', '550 no'), RangeError);
    await assert.rejects(startPostfix({ domains: [] }), RangeError);
    await assert.rejects(startPostfix({ domains: ['example.test'], address: '10.0.0.1' }), RangeError);
  });
});

describe('a relay instance in front of an MX', () => {
  let mx: PostfixServer;
  let relay: PostfixServer;
  let startMs = 0;
  const user = 'app';
  const password = 'correct horse battery staple';
  before(async () => {
    mx = await startPostfix({ domains: ['example.test'] });
    const t0 = performance.now();
    relay = await startPostfix({
      domains: [],
      relay: { user, password, nextHop: `${mx.address}:${mx.port}` },
    });
    startMs = performance.now() - t0;
  });
  after(async () => {
    await relay?.close();
    await mx?.close();
  });

  /** A submission client that must upgrade with STARTTLS and trusts only the relay's certificate. */
  const submit = (auth?: { user: string; pass: string }) =>
    nodemailer.createTransport({
      host: relay.address,
      port: relay.port,
      requireTLS: true,
      tls: { ca: relay.certificate },
      auth,
      name: 'client.test',
    });

  test('accepts mail with AUTH over STARTTLS and delivers it to the next hop', async (t) => {
    t.diagnostic(`postfix (relay: TLS key, sasldb) started and greeted in ${startMs.toFixed(0)} ms`);
    assert.equal(relay.port, 587);
    assert.notEqual(relay.address, mx.address);
    assert.match(relay.certificate ?? '', /BEGIN CERTIFICATE/);
    const info = await submit({ user, pass: password }).sendMail(mail('dana@example.test', 'relayed'));
    assert.deepEqual(info.accepted, ['dana@example.test']);
    const [message] = await mx.waitForMessages(1);
    assert.equal(message!.recipient, 'dana@example.test');
    const raw = message!.raw.toString('utf8');
    assert.match(raw, /^Subject: relayed$/m);
    assert.match(raw, /\(Authenticated sender: app\)/);
    assert.match(raw, /with ESMTPSA/);
    assert.deepEqual(await relay.messages(), []);
  });

  test('refuses a client without AUTH', async () => {
    await assert.rejects(submit().sendMail(mail('dana@example.test')), (error: SmtpError) => {
      assert.equal(error.responseCode, 530);
      assert.match(error.response ?? '', /^530 5\.7\.0 .*Authentication required$/);
      return true;
    });
  });

  test('refuses a wrong password', async () => {
    await assert.rejects(
      submit({ user, pass: 'wrong' }).sendMail(mail('dana@example.test')),
      (error: SmtpError) => {
        assert.equal(error.code, 'EAUTH');
        assert.equal(error.responseCode, 535);
        return true;
      },
    );
  });

  test('refuses anything but STARTTLS before TLS', async () => {
    const plain = nodemailer.createTransport({ host: relay.address, port: relay.port, ignoreTLS: true });
    await assert.rejects(plain.sendMail(mail('dana@example.test')), (error: SmtpError) => {
      assert.equal(error.responseCode, 530);
      assert.match(error.response ?? '', /STARTTLS/);
      return true;
    });
  });

  test('retries a recipient the next hop deferred, within seconds', async () => {
    await mx.rejectRecipient('frank@example.test', '450 4.2.0 mailbox busy');
    const count = (await mx.messages()).length;
    // the relay takes the message; its delivery attempt to the MX gets the 450
    await submit({ user, pass: password }).sendMail(mail('frank@example.test', 'deferred'));
    await waitFor(() => /to=<frank@example\.test>.*status=deferred.*mailbox busy/.test(relay.log()));
    await mx.acceptRecipient('frank@example.test');
    const [message] = (await mx.waitForMessages(count + 1)).slice(count);
    assert.equal(message!.recipient, 'frank@example.test');
  });

  test('a recipient rejected by the relay is refused at submission', async () => {
    await relay.rejectRecipient('erin@example.test', '550 5.7.1 not allowed here');
    await assert.rejects(
      submit({ user, pass: password }).sendMail(mail('erin@example.test')),
      (error: SmtpError) => error.responseCode === 550 && /not allowed here$/.test(error.response ?? ''),
    );
    await relay.acceptRecipient('erin@example.test');
    const count = (await mx.messages()).length;
    await submit({ user, pass: password }).sendMail(mail('erin@example.test'));
    await mx.waitForMessages(count + 1);
  });
});

describe('a relay without a next hop', () => {
  let relay: PostfixServer;
  before(async () => {
    relay = await startPostfix({ domains: ['own.test'], relay: { user: 'u', password: 'p' } });
  });
  after(() => relay?.close());

  test('delivers its own domains into its Maildir and refuses others', async () => {
    const client = nodemailer.createTransport({
      host: relay.address,
      port: relay.port,
      requireTLS: true,
      tls: { ca: relay.certificate },
      auth: { user: 'u', pass: 'p' },
    });
    await client.sendMail(mail('me@own.test'));
    const [message] = await relay.waitForMessages(1);
    assert.equal(message!.recipient, 'me@own.test');
    await assert.rejects(client.sendMail(mail('you@elsewhere.test')), { responseCode: 554 });
  });
});

describe('several instances', () => {
  test('run at once on different addresses, each with its own Maildir, and leave nothing behind', async (t) => {
    // given, as a caller gives one it claimed itself
    const chosenClaim = await claimLoopbackAddress();
    const chosen = chosenClaim.address;
    // the test runner holds the whole pool on lo for the run; alone, each claim adds its address
    const heldBefore = addressesOnLoopback();
    const t0 = performance.now();
    const [a, b, c] = await Promise.all([
      startPostfix({ domains: ['a.test'] }),
      startPostfix({ domains: ['b.test'] }),
      startPostfix({ domains: ['c.test'], address: chosen }),
    ]);
    t.diagnostic(`three instances started together in ${(performance.now() - t0).toFixed(0)} ms`);
    const all = [a!, b!, c!];
    try {
      assert.equal(new Set(all.map((s) => s.address)).size, 3);
      assert.equal(c!.address, chosen);
      await Promise.all(all.map((s, i) => mxClient(s).sendMail(mail(`user@${'abc'[i]}.test`, `to ${i}`))));
      for (const [i, server] of all.entries()) {
        const messages = await server.waitForMessages(1);
        assert.deepEqual(
          messages.map((m) => m.recipient),
          [`user@${'abc'[i]}.test`],
        );
      }
    } finally {
      const pids = all.map((s) => s.pid!);
      await Promise.all(all.map((s) => s.close()));
      for (const server of all) {
        assert.ok(!existsSync(server.dir), `${server.dir} removed`);
        assert.equal(
          onLoopback(server.address),
          heldBefore.has(server.address),
          `lo as before for ${server.address}`,
        );
      }
      for (const pid of pids) {
        assert.ok(!isRunning(pid), `master ${pid} stopped`);
        assert.deepEqual(groupMembers(pid), [], `the daemons of master ${pid} stopped`);
      }
      assert.ok(!isLoopbackClaimed(a!.address) && !isLoopbackClaimed(b!.address), 'claims given back');
      chosenClaim.release();
    }
  });

  test('refuse an address whose port another process holds', async () => {
    const claim = await claimLoopbackAddress();
    const address = claim.address;
    const holder = net.createServer().listen(25, address);
    await once(holder, 'listening');
    try {
      await assert.rejects(startPostfix({ domains: ['a.test'], address }), /in use by another process/);
    } finally {
      holder.close();
      claim.release();
    }
  });

  for (const ending of ['crashes', 'is killed'] as const) {
    test(`a test process that ${ending} leaves no postfix behind`, async () => {
      const subject = childImport(import.meta.url, './postfix.ts');
      const script = `
        import { startPostfix } from ${JSON.stringify(subject.href)};
        const mx = await startPostfix({ domains: ['orphan.test'] });
        console.log(JSON.stringify({ pid: mx.pid, dir: mx.dir, address: mx.address }));
        // it crashes when told, once the test has seen its postfix running (a timer raced the check)
        if (process.env.ENDING === 'crashes') process.stdin.once('data', () => { throw new Error('boom'); });
        else setInterval(() => {}, 1000);
      `;
      const heldBefore = addressesOnLoopback();
      const child = spawn(process.execPath, [...subject.nodeArgs, '--input-type=module', '-e', script], {
        env: { ...process.env, ENDING: ending },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      await waitFor(() => stdout.includes('\n') || child.exitCode !== null, 15_000).catch(() => {});
      assert.ok(stdout.includes('\n'), `the child did not start postfix: ${stderr}`);
      const { pid, dir, address } = JSON.parse(stdout) as { pid: number; dir: string; address: string };
      assert.ok(isRunning(pid));
      if (ending === 'is killed') child.kill('SIGKILL');
      else child.stdin.write('crash\n');
      assert.notEqual(await exited, 0);
      // master dies with the test process (parent-death signal); its daemons notice and follow
      await waitFor(() => !isRunning(pid) && groupMembers(pid).length === 0, 5000).catch(() => {});
      assert.ok(!isRunning(pid), `master ${pid} survived`);
      assert.deepEqual(groupMembers(pid), [], 'postfix daemons survived');
      // An exit handler can remove the directory and give the address back; after SIGKILL only
      // the kernel acts, and both are left for whoever killed the process (a claim whose process
      // is gone counts for nothing: the next claim takes it over).
      assert.equal(isLoopbackClaimed(address), false);
      if (ending === 'crashes') {
        assert.equal(existsSync(dir), false);
        assert.equal(onLoopback(address), heldBefore.has(address), 'lo as before');
      } else {
        rmSync(dir, { recursive: true, force: true });
        if (!heldBefore.has(address)) execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo']);
      }
    });
  }
});

/** Live (non-zombie) processes in process group `pgid`. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[0] !== 'Z' && Number(fields[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
