/**
 * A private Postfix 3.7 for tests that send real mail: the recipient domains' MX on port 25 of
 * its own loopback address, delivering every message into one Maildir the test reads; or a
 * submission relay (port 587, STARTTLS required, SMTP AUTH against a Cyrus sasldb) that delivers
 * its own domains into its Maildir and hands everything else to a next hop (usually an MX
 * instance), as a customer's mail provider does.
 *
 * Every file Postfix would otherwise share with a system instance (main.cf, master.cf, queue,
 * data directory with its locks, log, TLS key, sasldb, access map) lives in one temporary
 * directory, and each instance listens only on its own loopback address, which it adds to `lo`
 * itself (Postfix refuses an `inet_interfaces` address no interface holds), so instances run side
 * by side and beside a system postfix on 127.0.0.1. The `master` daemon runs in the foreground
 * under a small shell that is our child and stops it when we die; an exit guard kills master's
 * process group, deletes the directory and drops the address if the test process exits first.
 * Postfix needs root. Measured facts: docs/postfix-in-tests.md.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { hasSetpriv, PortTakenError, terminate, watchDaemon } from './child-process.js';
import { guardOnExit } from './exit-guard.js';
import { addressesOnLoopback, claimLoopbackAddress, type LoopbackClaim } from './loopback.js';
import { DEFAULT_WAIT_MS } from './wait.js';

/** Options of {@link startPostfix}. */
export interface StartPostfixOptions {
  /**
   * The loopback address to listen on. By default one of the test pool, 127.0.25.1–254, is
   * claimed, so concurrent test processes never pick the same one (loopback.ts). A given address
   * is added to `lo` when missing (and taken off on close).
   */
  address?: string;
  /** Domains whose mail, for any local part, is delivered into this instance's Maildir. */
  domains: readonly string[];
  /** Make this instance a submission relay instead of an MX. */
  relay?: RelayOptions;
  /** `myhostname` (banner, Received, TLS certificate name); `mx-127-0-25-1.postfix.test` style by default. */
  hostname?: string;
  /**
   * Postfix `transport_maps` entries, by domain or full address: `'smtp:[127.0.0.1]:2525'` sends
   * that mail (bounces to a return path, say) to a listener without DNS; `'error:5.1.1 gone'`
   * accepts mail for the address and then bounces it, with a DSN to the envelope sender.
   */
  transports?: Record<string, string>;
  /**
   * Domains this MX takes mail for and passes on by `transports` (Postfix `relay_domains`): a
   * gateway, as a sending MTA fed by `smtp-source` is in the delivery bench.
   */
  relayDomains?: readonly string[];
}

/** The relay's one SMTP AUTH account and where it sends mail for other domains. */
export interface RelayOptions {
  user: string;
  password: string;
  /**
   * `'127.0.25.1'` or `'127.0.25.1:25'`: the MTA that gets all mail for domains other than
   * `domains` (Postfix `relayhost`, no MX lookup). Without it, the relay accepts only `domains`.
   */
  nextHop?: string;
}

/** One delivered copy of a message: each recipient gets its own file. */
export interface DeliveredMessage {
  /** The Maildir file. */
  path: string;
  /** The file as delivered, including the `Return-Path`, `Delivered-To` and `Received` headers Postfix adds. */
  raw: Buffer;
  /** The envelope recipient, as the client spelled it (`Delivered-To`). */
  recipient: string;
  /** The envelope sender (`Return-Path`), `''` for a bounce. */
  sender: string;
}

/** A running private Postfix. */
export interface PostfixServer {
  /** The loopback address it listens on. */
  readonly address: string;
  /** 25 for an MX, 587 (submission, RFC 6409) for a relay. */
  readonly port: number;
  /** Its `myhostname`, also the TLS certificate's name. */
  readonly hostname: string;
  /** A relay's self-signed certificate (PEM, names `hostname` and `address`), to pass as `tls.ca`. */
  readonly certificate: string | undefined;
  /** The temporary directory holding config, queue, Maildir and `maillog`. */
  readonly dir: string;
  /** The master daemon's pid while it runs. */
  readonly pid: number | undefined;
  /** Every delivered message, oldest first. */
  messages(): Promise<DeliveredMessage[]>;
  /** Poll until at least `n` messages are delivered (60 s by default); rejects with the log's tail. */
  waitForMessages(n: number, timeoutMs?: number): Promise<DeliveredMessage[]>;
  /**
   * Answer RCPT TO for `address` (an address, or a whole domain) with `reply`, e.g.
   * `'550 5.1.1 no such user'` or `'450 4.2.0 try later'` (an access(5) rule in a hash map).
   * Postfix sends `550 5.1.1 <bob@example.test>: Recipient address rejected: no such user`.
   * Resolves once a new connection gets that reply.
   */
  rejectRecipient(address: string, reply: string): Promise<void>;
  /** Remove the rule for `address` again; resolves once a new connection gets `250` for it. */
  acceptRecipient(address: string): Promise<void>;
  /** The maillog so far (every SMTP session, queue and delivery event). */
  log(): string;
  /** Stop Postfix, delete the directory and give the loopback address back. */
  close(): Promise<void>;
}

const MASTER = '/usr/lib/postfix/sbin/master';
/**
 * master runs under a shell that stops it when the shell gets SIGTERM and exits when it exits.
 * A parent-death signal on master itself does not survive: the kernel clears it when a process
 * changes its effective uid or gid (prctl(2), PR_SET_PDEATHSIG), which master does at startup.
 * So the shell gets the parent-death signal (SIGTERM, which it can trap) and passes it on.
 */
const SUPERVISOR = `"$1" -c "$2" -s &
trap 'kill -TERM $! 2>/dev/null; wait $!; exit 143' TERM INT HUP
wait $!`;
const START_TIMEOUT_MS = 10_000;
/** The queue subdirectories only `postfix` may enter, as `postfix check` (post-install) creates them. */
const QUEUE_DIRS = 'active bounce corrupt defer deferred flush hold incoming private saved trace'.split(' ');
const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** access(5): a 4xx or 5xx code, an optional enhanced status code (RFC 3463) and text, on one line. */
const REPLY = /^([45]\d\d)(?: ([45]\.\d{1,3}\.\d{1,3}))? ([^\r\n]+)$/;

/**
 * Start a private Postfix and resolve once it greets on its port with its own banner.
 *
 * @example
 * const mx = await startPostfix({ domains: ['example.test'] });
 * const relay = await startPostfix({
 *   domains: [],
 *   relay: { user: 'app', password: 'secret', nextHop: `${mx.address}:25` },
 * });
 * // submit to relay.address:relay.port with STARTTLS (tls.ca = relay.certificate) and AUTH
 * const [message] = await mx.waitForMessages(1);
 * await relay.close();
 * await mx.close();
 */
export async function startPostfix(options: StartPostfixOptions): Promise<PostfixServer> {
  const config = normalizeOptions(options);
  if (process.getuid?.() !== 0) throw new Error('a private Postfix needs root (its master runs as root)');
  if (!existsSync(MASTER)) throw new Error(`${MASTER} is missing: apt-get install -y postfix sasl2-bin`);
  const port = config.relay ? 587 : 25;
  const claim = await claimAddress(options.address, port);
  const server = new PrivatePostfix(config, claim, port);
  try {
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

interface Config {
  domains: string[];
  relay: (RelayOptions & { nextHop?: string }) | undefined;
  hostname: string | undefined;
  transports: Record<string, string>;
  relayDomains?: string[];
}

class PrivatePostfix implements PostfixServer {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'service-postfix-'));
  readonly address: string;
  readonly hostname: string;
  certificate: string | undefined;
  private readonly banner = `test-${randomBytes(6).toString('hex')}`;
  private readonly rules = new Map<string, string>();
  /** The supervising shell (see {@link SUPERVISOR}). */
  private child: ChildProcess | undefined;
  private masterPid: number | undefined;
  private closed = false;
  private readonly unguard: () => void;

  constructor(
    private readonly config: Config,
    private readonly claim: LoopbackClaim,
    readonly port: number,
  ) {
    this.address = claim.address;
    this.hostname =
      config.hostname ?? `${config.relay ? 'relay' : 'mx'}-${this.address.replaceAll('.', '-')}.postfix.test`;
    this.unguard = guardOnExit(() => {
      if (this.masterPid !== undefined) killGroup(this.masterPid);
      if (this.child?.pid !== undefined) killGroup(this.child.pid);
      rmSync(this.dir, { recursive: true, force: true });
      try {
        this.claim.release();
      } catch {}
    });
  }

  get pid(): number | undefined {
    return this.child ? this.masterPid : undefined;
  }

  async start(): Promise<void> {
    await this.writeFiles();
    const command = ['/bin/sh', '-c', SUPERVISOR, 'postfix-supervisor', MASTER, this.file('conf')];
    // setsid: the shell leads its own group, so SIGINT at a terminal reaches only the test process
    const child = spawn(...parentDeathTerm(command), { cwd: this.dir, stdio: 'ignore', detached: true });
    this.child = child;
    const exit = watchDaemon(child, () => {
      if (this.child === child) this.child = undefined;
    });

    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exit() !== undefined)
        throw new Error(`postfix failed to start (${exit()}):\n${await this.diagnostics()}`);
      const greeting = await readGreeting(this.address, this.port);
      if (greeting?.includes(this.banner)) {
        // master writes its pid (space-padded) before it opens any listener
        this.masterPid = Number(readFileSync(this.file('queue/pid/master.pid'), 'utf8').trim());
        return;
      }
      if (greeting !== undefined)
        throw new PortTakenError(`${this.address}:${this.port} is served by another process: ${greeting}`);
      if (Date.now() > deadline)
        throw new Error(
          `postfix did not greet on ${this.address}:${this.port}:\n${await this.diagnostics()}`,
        );
      await sleep(10);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const child = this.child;
    if (child?.pid !== undefined) {
      child.ref();
      // SIGTERM to the shell, which passes it on: master stops its process group and exits.
      await terminate(child, ['SIGTERM', 'SIGKILL'], 5000);
      killGroup(child.pid);
    }
    // whatever is left of master's group (after a SIGKILL escalation, or a master that outlived its shell)
    if (this.masterPid !== undefined) {
      killGroup(this.masterPid);
      // so that a test checking for leftovers right after close() finds none
      const deadline = Date.now() + 2000;
      while (groupExists(this.masterPid) && Date.now() < deadline) await sleep(10);
    }
    rmSync(this.dir, { recursive: true, force: true });
    try {
      this.claim.release();
    } catch {}
    this.unguard();
  }

  async messages(): Promise<DeliveredMessage[]> {
    const maildir = this.file('mail/maildir');
    const files: { path: string; mtime: number }[] = [];
    for (const sub of ['new', 'cur']) {
      const names = await readdir(path.join(maildir, sub)).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(maildir, sub, name);
        files.push({ path: file, mtime: (await stat(file)).mtimeMs });
      }
    }
    files.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path));
    return Promise.all(
      files.map(async ({ path: file }) => {
        const raw = await readFile(file);
        const headers = parseHeaders(raw);
        return {
          path: file,
          raw,
          recipient: headers.get('delivered-to') ?? '',
          sender: (headers.get('return-path') ?? '').replace(/^<|>$/g, ''),
        };
      }),
    );
  }

  // 60 s by default, the tests' usual wait: Postfix's retry of a deferred recipient (queue runs
  // 1 s apart, backoff 1–2 s) took more than 10 s once on a loaded run (five files on two cores).
  async waitForMessages(n: number, timeoutMs = DEFAULT_WAIT_MS): Promise<DeliveredMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const messages = await this.messages();
      if (messages.length >= n) return messages;
      if (Date.now() > deadline) {
        const tail = this.log().trimEnd().split('\n').slice(-15).join('\n');
        throw new Error(
          `${this.hostname}: ${messages.length} of ${n} messages delivered after ${timeoutMs} ms; maillog:\n${tail}`,
        );
      }
      await sleep(25);
    }
  }

  async rejectRecipient(address: string, reply: string): Promise<void> {
    const key = accessKey(address);
    const match = REPLY.exec(reply);
    if (!match)
      throw new RangeError(`expected a reply like '550 5.1.1 no such user', got ${JSON.stringify(reply)}`);
    this.rules.set(key, reply);
    await this.applyRules(key, (answer) => answer.startsWith(`${match[1]} `) && answer.endsWith(match[3]!));
  }

  async acceptRecipient(address: string): Promise<void> {
    const key = accessKey(address);
    this.rules.delete(key);
    await this.applyRules(key, (answer) => answer.startsWith('250'));
  }

  log(): string {
    try {
      return readFileSync(this.file('maillog'), 'utf8');
    } catch {
      return '';
    }
  }

  /**
   * Rewrite the access map so that the next SMTP session sees it. An idle smtpd checks its maps
   * before it accepts a connection and restarts if one changed: by mtime, which has whole-second
   * resolution (a second change within one second went unseen), or because the file was
   * replaced (link count 0). So postmap builds a new file that is renamed over the old one. A
   * reload (SIGHUP) would do too, but the first session after it waited ~1 s for the cleanup
   * service now and then. The probe proves the change is visible before this resolves.
   */
  private async applyRules(key: string, shows: (answer: string) => boolean): Promise<void> {
    const lines = [...this.rules].map(([k, reply]) => `${k} ${reply}`);
    const map = this.file('conf/recipient_access');
    writeFileSync(`${map}.next`, lines.length ? `${lines.join('\n')}\n` : '');
    await run('postmap', ['-c', this.file('conf'), `hash:${map}.next`]);
    renameSync(`${map}.next.db`, `${map}.db`);
    renameSync(`${map}.next`, map);
    if (this.pid === undefined) throw new Error(`postfix on ${this.address} is not running`);
    const recipient = key.includes('@') ? key : `probe@${key}`;
    const deadline = Date.now() + 5000;
    let answer = '';
    for (;;) {
      answer = await this.rcptReply(recipient).catch((error: Error) => error.message);
      if (shows(answer)) return;
      if (Date.now() > deadline)
        throw new Error(`RCPT TO:<${recipient}> on ${this.address} still answers ${JSON.stringify(answer)}`);
      await sleep(20);
    }
  }

  /** What a new SMTP session gets for RCPT TO (after STARTTLS and AUTH on a relay). */
  private async rcptReply(recipient: string): Promise<string> {
    const session = await SmtpSession.open(this.address, this.port);
    try {
      await session.command(`EHLO probe.test`, 250);
      const relay = this.config.relay;
      if (relay) {
        await session.command('STARTTLS', 220);
        await session.startTls({ ca: this.certificate, servername: this.hostname });
        await session.command(`EHLO probe.test`, 250);
        const plain = Buffer.from(`\0${relay.user}\0${relay.password}`).toString('base64');
        await session.command(`AUTH PLAIN ${plain}`, 235);
      }
      await session.command('MAIL FROM:<>', 250);
      return await session.command(`RCPT TO:<${recipient}>`);
    } finally {
      session.quit();
    }
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  /** The directory tree, main.cf, master.cf, the empty access map and, for a relay, TLS and SASL files. */
  private async writeFiles(): Promise<void> {
    const { uid, gid } = postfixIds();
    const postdrop = groupId('postdrop');
    // daemons run as `postfix` and must reach queue and Maildir through the temp directory
    chmodSync(this.dir, 0o755);
    for (const sub of ['conf', 'queue', 'data', 'mail']) mkdirSync(this.file(sub));
    chownSync(this.file('data'), uid, gid);
    chownSync(this.file('mail'), uid, gid);
    // The queue as `postfix check` (post-install create-missing) lays it out, without its 0.25 s.
    for (const sub of QUEUE_DIRS) {
      mkdirSync(this.file(`queue/${sub}`), { mode: 0o700 });
      chownSync(this.file(`queue/${sub}`), uid, 0);
    }
    mkdirSync(this.file('queue/pid'), { mode: 0o755 });
    for (const [sub, mode] of [
      ['maildrop', 0o730],
      ['public', 0o710],
    ] as const) {
      mkdirSync(this.file(`queue/${sub}`));
      chownSync(this.file(`queue/${sub}`), uid, postdrop);
      chmodSync(this.file(`queue/${sub}`), mode);
    }
    const relay = this.config.relay;
    if (relay) await this.writeRelaySecrets(relay, uid, gid);
    writeFileSync(this.file('conf/main.cf'), this.mainCf(uid, gid));
    writeFileSync(this.file('conf/master.cf'), masterCf(this.port, relay !== undefined));
    // Postfix reads a main.cf modified within the last second again and again, 0.3 s apart, for
    // up to ~2 s (so that it never sees an editor's half-written file): date both files back.
    const past = new Date(Date.now() - 60_000);
    for (const name of ['conf/main.cf', 'conf/master.cf']) utimesSync(this.file(name), past, past);
    writeFileSync(this.file('conf/recipient_access'), '');
    await run('postmap', ['-c', this.file('conf'), `hash:${this.file('conf/recipient_access')}`]);
  }

  private async writeRelaySecrets(relay: RelayOptions, uid: number, gid: number): Promise<void> {
    // P-256 rather than RSA: key generation takes milliseconds.
    await run('openssl', [
      ...'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2'.split(' '),
      ...['-keyout', this.file('conf/key.pem'), '-out', this.file('conf/cert.pem')],
      ...[
        '-subj',
        `/CN=${this.hostname}`,
        '-addext',
        `subjectAltName=DNS:${this.hostname},IP:${this.address}`,
      ],
    ]);
    this.certificate = readFileSync(this.file('conf/cert.pem'), 'utf8');
    // smtpd reads the key as root before it drops privileges, but the sasldb as `postfix`, per AUTH.
    // Debian's Postfix reads `$config_directory/sasl/smtpd.conf` (then /usr/lib/sasl) and ignores
    // cyrus_sasl_config_path (seen with strace); without sasldb_path the sasldb is /etc/sasldb2.
    mkdirSync(this.file('conf/sasl'));
    const sasldb = this.file('conf/sasl/sasldb2');
    writeFileSync(
      this.file('conf/sasl/smtpd.conf'),
      `pwcheck_method: auxprop\nauxprop_plugin: sasldb\nmech_list: PLAIN LOGIN\nsasldb_path: ${sasldb}\n`,
    );
    // Cyrus looks a user up in the realm named `myhostname` (the server's name, as smtpd passes
    // no realm), so clients log in as plain `user`.
    await run('saslpasswd2', ['-f', sasldb, '-p', '-c', '-u', this.hostname, relay.user], relay.password);
    chownSync(sasldb, uid, gid);
    chmodSync(sasldb, 0o600);
  }

  private mainCf(uid: number, gid: number): string {
    const { domains, relay, transports, relayDomains } = this.config;
    const access = `check_recipient_access hash:${this.file('conf/recipient_access')}`;
    const lines = [
      'compatibility_level = 3.6',
      `queue_directory = ${this.file('queue')}`,
      `data_directory = ${this.file('data')}`,
      'mail_owner = postfix',
      'setgid_group = postdrop',
      `myhostname = ${this.hostname}`,
      'mydomain = postfix.test',
      'myorigin = $myhostname',
      // nothing is local: no system users, no aliases, no /etc/aliases
      'mydestination =',
      'local_recipient_maps =',
      'alias_maps =',
      'alias_database =',
      'local_transport = error:5.1.1 local delivery is disabled in this test instance',
      `inet_interfaces = ${this.address}`,
      'inet_protocols = ipv4',
      `smtp_bind_address = ${this.address}`,
      `mynetworks = ${this.address}/32`,
      `smtpd_banner = $myhostname ESMTP ${this.banner}`,
      // Postfix logs to syslog by default; there is none here, so postlogd writes a file.
      `maillog_file = ${this.file('maillog')}`,
      `maillog_file_prefixes = ${this.dir}`,
      // Never ask DNS: no reverse lookup of clients, and the next hop is an IP literal.
      'smtpd_peername_lookup = no',
      'smtp_dns_support_level = disabled',
      'smtp_host_lookup = native',
      'lmtp_host_lookup = native',
      // Any local part of these domains goes into one Maildir (`static:` answers every lookup).
      `virtual_mailbox_domains = ${domains.join(' ')}`,
      `virtual_mailbox_base = ${this.file('mail')}`,
      'virtual_mailbox_maps = static:maildir/',
      `virtual_uid_maps = static:${uid}`,
      `virtual_gid_maps = static:${gid}`,
      `virtual_minimum_uid = ${uid}`,
      // Tests hit errors on purpose; a real server's 1 s penalty only slows them down.
      'smtpd_error_sleep_time = 0',
      // A deferred message (e.g. the next hop said 450) is retried within seconds, not minutes.
      'queue_run_delay = 1s',
      'minimal_backoff_time = 1s',
      'maximal_backoff_time = 2s',
      'biff = no',
      'append_dot_mydomain = no',
    ];
    const routes = Object.entries(transports);
    if (routes.length > 0)
      lines.push(
        `transport_maps = inline:{ ${routes.map(([key, value]) => `{ ${key} = ${value} }`).join(', ')} }`,
      );
    if (!relay) {
      if (relayDomains?.length) lines.push(`relay_domains = ${relayDomains.join(' ')}`);
      lines.push(
        'smtpd_relay_restrictions = reject_unauth_destination',
        `smtpd_recipient_restrictions = ${access}`,
      );
    } else {
      lines.push(
        'smtpd_tls_security_level = encrypt',
        'smtpd_tls_auth_only = yes',
        `smtpd_tls_cert_file = ${this.file('conf/cert.pem')}`,
        `smtpd_tls_key_file = ${this.file('conf/key.pem')}`,
        'smtpd_tls_loglevel = 1',
        'smtpd_sasl_auth_enable = yes',
        'smtpd_sasl_type = cyrus',
        'smtpd_sasl_path = smtpd',
        'smtpd_sasl_security_options = noanonymous',
        'smtpd_sasl_tls_security_options = noanonymous',
        // Received: … (Authenticated sender: user), so a test can see who submitted
        'smtpd_sasl_authenticated_header = yes',
        // RFC 4954 §6: a server that requires AUTH answers other commands with 530 5.7.0. (The
        // final `reject` is never reached; smtpd refuses to start without an explicit one.)
        'smtpd_relay_restrictions = permit_sasl_authenticated, check_client_access static:{530 5.7.0 Authentication required}, reject',
        `smtpd_recipient_restrictions = ${access}${relay.nextHop ? '' : ', reject_unauth_destination'}`,
      );
      if (relay.nextHop) lines.push(`relayhost = ${relay.nextHop}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private async diagnostics(): Promise<string> {
    // Postfix reports a fatal main.cf error before logging is set up only to syslog or a
    // terminal; `script` gives `postfix check` one, so the reason reaches the test output.
    const check = await run('script', ['-qec', `postfix -c ${this.file('conf')} check`, '/dev/null']).catch(
      (error: Error) => error.message,
    );
    const tail = this.log().trimEnd().split('\n').slice(-20).join('\n');
    return `${check.trim()}\n${tail}`.trim();
  }
}

/** The services an instance needs; `n` in the chroot column everywhere, since nothing is copied into a chroot. */
function masterCf(port: number, relay: boolean): string {
  const services = [
    `${port} inet n - n - - smtpd`,
    'pickup unix n - n 60 1 pickup',
    'cleanup unix n - n - 0 cleanup',
    'qmgr unix n - n 300 1 qmgr',
    'tlsmgr unix - - n 1000? 1 tlsmgr',
    'rewrite unix - - n - - trivial-rewrite',
    'bounce unix - - n - 0 bounce',
    'defer unix - - n - 0 bounce',
    'trace unix - - n - 0 bounce',
    'verify unix - - n - 1 verify',
    'flush unix n - n 1000? 0 flush',
    'proxymap unix - - n - - proxymap',
    'proxywrite unix - - n - 1 proxymap',
    'smtp unix - - n - - smtp',
    'relay unix - - n - - smtp',
    'showq unix n - n - - showq',
    'error unix - - n - - error',
    'retry unix - - n - - error',
    'discard unix - - n - - discard',
    'local unix - n n - - local',
    'virtual unix - n n - - virtual',
    'lmtp unix - - n - - lmtp',
    'anvil unix - - n - 1 anvil',
    'scache unix - - n - 1 scache',
    'postlog unix-dgram n - n - 1 postlogd',
  ];
  return `# ${relay ? 'submission relay' : 'MX'}\n${services.join('\n')}\n`;
}

function normalizeOptions(options: StartPostfixOptions): Config {
  const domains = options.domains.map((d) => d.trim().toLowerCase().replace(/\.$/, ''));
  for (const domain of domains)
    if (!DOMAIN.test(domain)) throw new RangeError(`not a domain name: ${JSON.stringify(domain)}`);
  if (options.address !== undefined && !LOOPBACK.test(options.address))
    throw new RangeError(`expected a 127.x.y.z address, got ${JSON.stringify(options.address)}`);
  if (options.hostname !== undefined && !DOMAIN.test(options.hostname))
    throw new RangeError(`not a host name: ${JSON.stringify(options.hostname)}`);
  const transports = options.transports ?? {};
  for (const [key, value] of Object.entries(transports))
    if (!/^[a-z0-9.@_+-]+$/i.test(key) || /[{}\r\n,]/.test(value))
      throw new RangeError(`bad transport entry ${JSON.stringify(key)} = ${JSON.stringify(value)}`);
  const relay = options.relay;
  if (!relay) {
    if (domains.length === 0) throw new RangeError('an MX needs at least one domain');
    const relayDomains = (options.relayDomains ?? []).map((d) => d.trim().toLowerCase());
    for (const domain of relayDomains)
      if (!DOMAIN.test(domain)) throw new RangeError(`not a domain name: ${JSON.stringify(domain)}`);
    return { domains, relay: undefined, hostname: options.hostname, transports, relayDomains };
  }
  if (!/^[A-Za-z0-9._-]+$/.test(relay.user))
    throw new RangeError(`bad SASL user name ${JSON.stringify(relay.user)}`);
  if (relay.password === '' || /[\0\r\n]/.test(relay.password))
    throw new RangeError('the SASL password must be one non-empty line');
  let nextHop: string | undefined;
  if (relay.nextHop !== undefined) {
    const match = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3})(?::(\d{1,5}))?$/.exec(relay.nextHop);
    if (!match)
      throw new RangeError(`expected nextHop '127.x.y.z[:port]', got ${JSON.stringify(relay.nextHop)}`);
    // brackets: deliver to this address, no MX lookup (there is no DNS)
    nextHop = `[${match[1]}]:${match[2] ?? 25}`;
  } else if (domains.length === 0) {
    throw new RangeError('a relay without nextHop needs at least one domain to deliver to');
  }
  return { domains, relay: { ...relay, nextHop }, hostname: options.hostname, transports };
}

/** An access(5) key: a whole address or a domain, lowercase (Postfix folds the lookup key). */
function accessKey(address: string): string {
  const key = address.trim().toLowerCase();
  const [local, domain] = key.includes('@')
    ? [key.slice(0, key.lastIndexOf('@')), key.slice(key.lastIndexOf('@') + 1)]
    : ['', key];
  if (!DOMAIN.test(domain) || /[\s<>]/.test(local) || (key.includes('@') && local === ''))
    throw new RangeError(`expected an address or a domain, got ${JSON.stringify(address)}`);
  return key;
}

/**
 * Take `address`, putting it on `lo` unless it is there, or claim one of the test pool
 * (loopback.ts) whose `port` is free.
 */
async function claimAddress(address: string | undefined, port: number): Promise<LoopbackClaim> {
  if (address === undefined) return claimLoopbackAddress((candidate) => canListenTcp(port, candidate));
  const added = !addressesOnLoopback().has(address);
  if (added) await run('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo']);
  const claim: LoopbackClaim = {
    address,
    release: () => {
      if (added) execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo'], { stdio: 'ignore' });
    },
  };
  if (!(await canListenTcp(port, address))) {
    try {
      claim.release();
    } catch {}
    throw new PortTakenError(`${address}:${port} is in use by another process`);
  }
  return claim;
}

let ids: { uid: number; gid: number } | undefined;
/** The `postfix` user's uid and gid (the Debian package creates them). */
function postfixIds(): { uid: number; gid: number } {
  if (ids) return ids;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postfix:'));
  if (!line) throw new Error('no postfix user: apt-get install -y postfix');
  const [, , uid, gid] = line.split(':');
  ids = { uid: Number(uid), gid: Number(gid) };
  return ids;
}

function groupId(name: string): number {
  const line = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${name} group: apt-get install -y postfix`);
  return Number(line.split(':')[2]);
}

/** Header fields of a message (unfolded, lowercase names, the first occurrence of each). */
function parseHeaders(raw: Buffer): Map<string, string> {
  // UTF-8: an SMTPUTF8 message's headers may carry it raw (RFC 6532)
  const text = raw.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  const fields = new Map<string, string>();
  for (const field of (end === -1 ? text : text.slice(0, end)).split(/\r?\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    if (colon <= 0) continue;
    const name = field.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name))
      fields.set(
        name,
        field
          .slice(colon + 1)
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      );
  }
  return fields;
}

/** A minimal SMTP client session (RFC 5321), for probing replies no library exposes. */
class SmtpSession {
  private buffer = '';
  private waiting: (() => void) | undefined;
  private ended: Error | undefined;

  private constructor(private socket: net.Socket) {
    this.listen();
  }

  static async open(host: string, port: number): Promise<SmtpSession> {
    const socket = net.connect({ host, port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.setTimeout(5000, () => socket.destroy(new Error('SMTP probe timed out')));
    const session = new SmtpSession(socket);
    await session.reply(220);
    return session;
  }

  /** Send one command line and read the reply; with `expect`, a different code throws. */
  async command(line: string, expect?: number): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply(expect);
  }

  async startTls(options: tls.ConnectionOptions): Promise<void> {
    this.socket.removeAllListeners('data');
    const secure = tls.connect({ ...options, socket: this.socket });
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    this.socket = secure;
    this.listen();
  }

  quit(): void {
    if (this.ended) return;
    this.socket.end('QUIT\r\n');
  }

  private listen(): void {
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    const end = (error?: Error) => {
      this.ended ??= error ?? new Error('connection closed');
      this.waiting?.();
    };
    this.socket.on('error', end);
    this.socket.on('close', () => end());
  }

  /** The next complete reply, its lines joined with `\n` (the last line is `NNN text`). */
  private async reply(expect?: number): Promise<string> {
    for (;;) {
      const match = /^(?:\d{3}-[^\n]*\n)*\d{3}(?: [^\n]*)?\r?\n/.exec(this.buffer);
      if (match) {
        this.buffer = this.buffer.slice(match[0].length);
        const reply = match[0].replace(/\r/g, '').trimEnd();
        if (expect !== undefined && !reply.split('\n').at(-1)!.startsWith(String(expect)))
          throw new Error(`expected ${expect}, got ${reply}`);
        return reply.split('\n').at(-1)!;
      }
      if (this.ended) throw this.ended;
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }
}

/** The greeting line at `host:port`, or `undefined` when nothing listens (or it says nothing in 1 s). */
async function readGreeting(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = '';
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const line = /^[^\n]*\n/.exec(data);
      if (line) {
        socket.end('QUIT\r\n');
        resolve(line[0].trim());
      }
    });
    socket.on('error', () => done(undefined));
  });
}

function canListenTcp(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** `command` under `setpriv --pdeathsig TERM` where available (see {@link SUPERVISOR}). */
function parentDeathTerm(command: readonly string[]): [string, string[]] {
  if (!hasSetpriv()) return [command[0]!, command.slice(1)];
  return ['/usr/bin/setpriv', ['--pdeathsig', 'TERM', '--', ...command]];
}

/** SIGKILL a process group (master is its leader: it calls setsid), ignoring one already gone. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {}
}

/**
 * Whether a live process is left in group `pgid` (the daemons hold master's listening socket).
 * Zombies do not count: killed daemons are orphans, and pid 1 reaps them when it gets to it.
 */
function groupExists(pgid: number): boolean {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(group) === pgid) return true;
    } catch {}
  }
  return false;
}

/** Run a command to completion; rejects with its output when it exits non-zero. */
function run(command: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command}: ${`${stderr}${stdout}`.trim() || error.message}`));
      else resolve(stdout);
    });
    // A command that never reads its input may exit before the write lands (EPIPE).
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
