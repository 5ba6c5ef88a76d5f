/**
 * A private BIND 9 (`named`) for tests that need real DNS over the wire: customer zones that
 * take RFC 2136 updates, secondaries that pull a zone by AXFR from our own responder, and an
 * optional recursive mode that follows CNAME chains across the local zones.
 *
 * Every file named would otherwise share with a system instance (config, pid file, lock file,
 * session key, log, rndc control port and key) lives in one temporary directory, so any number
 * of instances run side by side. named is started in the foreground as our child, never as a
 * daemon, so its pid is ours to stop; an exit guard kills it if the test process dies first.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import type { CaaRecord, MxRecord, SoaRecord, SrvRecord } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  findFreeTcpPort,
  PortTakenError,
  terminate,
  watchDaemon,
  withParentDeathSignal,
} from './child-process.js';
import { guardOnExit } from './exit-guard.js';

/** Options of {@link startBind}. */
export interface StartBindOptions {
  /** Primary zones (e.g. `['example.test']`) that accept RFC 2136 updates signed with {@link BindServer.tsig}. */
  zones?: readonly string[];
  /** Zones this server pulls by AXFR (`request-ixfr no`) from `primary` (`'127.0.0.1:PORT'`); NOTIFY from 127.0.0.1 is accepted. */
  secondaries?: readonly SecondaryZone[];
  /**
   * Allow recursion for 127.0.0.1 over a fake local root zone: named never leaves the machine
   * (a name outside the local zones is NXDOMAIN from that root) and a query follows a CNAME
   * from one local zone into another, answering the whole chain at once.
   */
  recursion?: boolean;
  /** `'127.0.0.1:PORT'` addresses that get a NOTIFY (with no delay) whenever a primary zone changes. */
  notify?: readonly string[];
  /** The DNS port; by default a free one. Pick one with {@link findFreeDnsPort} to break a NOTIFY cycle. */
  port?: number;
  /**
   * The loopback address to listen on (`127.0.0.1` by default). Another one, claimed with
   * `claimLoopbackAddress` (loopback.ts), lets a server answer on port 53, where a resolver's
   * delegation reaches it, as a customer's authoritative server is reached: named listens only
   * on addresses an interface holds.
   */
  host?: string;
  /**
   * With `recursion`: zones the fake root delegates to a name server at `host`, port 53. A zone
   * may be listed again with another `host`, each entry with its own `nameServers` (names only,
   * answered with that entry's `host`): a zone served by several servers that may disagree.
   */
  delegations?: readonly { zone: string; host: string; nameServers?: readonly string[] }[];
  /** The primary zones' negative TTL (SOA minimum and TTL, RFC 2308 §5); 10 s by default. */
  negativeTtl?: number;
  /**
   * The NS names of primary zones and of delegations, by zone (`ns.<zone>` by default): e.g.
   * a DNS provider's names (`ada.ns.cloudflare.com`), which the fake root answers with `host`.
   * Names only; nothing leaves the machine.
   */
  nameServers?: Readonly<Record<string, readonly string[]>>;
  /**
   * The address each in-zone NS name gets in the primary zones' files (`host` by default):
   * two servers of one zone, each naming the other's address, as a real zone's do.
   */
  nameServerHosts?: Readonly<Record<string, string>>;
}

/** A zone pulled from another server. */
export interface SecondaryZone {
  zone: string;
  /** `'127.0.0.1:PORT'` of the primary, which must answer SOA and AXFR over TCP. */
  primary: string;
}

/** The TSIG key every primary zone accepts updates with, in the form `nsupdate -y` and DNS libraries take. */
export interface TsigKey {
  name: string;
  algorithm: 'hmac-sha256';
  /** Base64. */
  secret: string;
}

/** What {@link BindServer.waitFor} hands its predicate, per record type (as `dns.promises` returns them, SOA wrapped in an array). */
export interface RecordAnswers {
  A: string[];
  AAAA: string[];
  CNAME: string[];
  NS: string[];
  PTR: string[];
  TXT: string[][];
  MX: MxRecord[];
  SRV: SrvRecord[];
  CAA: CaaRecord[];
  SOA: SoaRecord[];
}

/** A record type {@link BindServer.waitFor} can poll. */
export type RecordType = keyof RecordAnswers;

/** A running (or stopped) private named. */
export interface BindServer {
  /** UDP and TCP port on 127.0.0.1; the same across {@link stop} and {@link start}. */
  readonly port: number;
  /** `'127.0.0.1:PORT'`, for `Resolver#setServers` and `DNS_RESOLVERS`. */
  readonly address: string;
  readonly tsig: TsigKey;
  /** The temporary directory holding config, zones, journals and `named.log`. */
  readonly dir: string;
  /** named's pid while it runs. */
  readonly pid: number | undefined;
  /** A resolver that asks only this server (no cache, 1 s timeout, 2 tries). */
  resolver(): Resolver;
  /**
   * Send one signed RFC 2136 update to `zone` with nsupdate, e.g.
   * `['update delete x.example.test CNAME', 'update add x.example.test 300 CNAME y.example.test.']`.
   * Resolves once the server answered NOERROR; the change is visible to the very next query.
   * Throws with nsupdate's output otherwise (e.g. `update failed: NOTAUTH`, `YXRRSET`).
   */
  update(zone: string, commands: readonly string[]): Promise<void>;
  /**
   * Add one record to the primary zone that holds `name`. A TXT `value` is the text itself,
   * quoted and split into ≤255-byte strings here (an unquoted `;` would start a comment); pass an
   * array to choose the strings. Other types take presentation format (`'target.example.'`).
   * Throws where the server would silently ignore the add (RFC 2136 §3.4.2.2): a non-CNAME
   * record at a CNAME, or a CNAME at a name holding other data.
   */
  addRecord(name: string, type: string, value: string | readonly string[], ttl?: number): Promise<void>;
  /** Delete the records of `type` at `name`, or every record at `name` when `type` is omitted. */
  deleteRecords(name: string, type?: string): Promise<void>;
  /**
   * Poll until a query answers and `predicate` (default: at least one answer) holds; returns
   * those answers. NXDOMAIN and NODATA count as no answers; other errors (not running,
   * SERVFAIL of a secondary not yet loaded) just mean "not yet". Rejects after `timeoutMs` (5 s).
   */
  waitFor<K extends RecordType>(
    name: string,
    type: K,
    predicate?: (answers: RecordAnswers[K]) => boolean,
    timeoutMs?: number,
  ): Promise<RecordAnswers[K]>;
  /** Force a secondary to transfer its zone now (`rndc retransfer`); pair it with {@link waitFor}. */
  retransfer(zone: string): Promise<void>;
  /** How many queries this server has received since it started (`rndc stats`), for benchmarks. */
  queriesReceived(): Promise<number>;
  /**
   * Stop named, keeping its directory: dynamic updates are written into the zone files first
   * (`rndc sync`; their journals would replay anyway), so {@link start} brings them back.
   */
  stop(): Promise<void>;
  /** Start again on the same port, with the same zones and data; resolves once it answers. */
  start(): Promise<void>;
  /** Stop and delete the directory. */
  close(): Promise<void>;
}

const NAMED = existsSync('/usr/sbin/named') ? '/usr/sbin/named' : 'named';
const START_TIMEOUT_MS = 10_000;
/** Primary SOA: serial, refresh 60 s, retry 10 s, expire 1 d, negative TTL 10 s so test resolvers forget NXDOMAIN fast. */
/** SOA serial, refresh, retry and expire; the minimum (negative TTL) is set per server. */
const SOA_TIMERS = '1 60 10 86400';
const ZONE_NAME =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/;

/**
 * Start a private named on 127.0.0.1 and resolve once it answers, over UDP and TCP, as itself
 * (a random `server-id`, so a port taken meanwhile by someone else is noticed) and with every
 * primary zone loaded; the first start moves to fresh ports if its pick was taken meanwhile. Secondaries may still be empty: {@link BindServer.retransfer} and
 * {@link BindServer.waitFor} them.
 *
 * @example
 * const dns = await startBind({ zones: ['example.test'] });
 * await dns.addRecord('_dmarc.example.test', 'TXT', 'v=DMARC1; p=none;');
 * const resolver = dns.resolver(); // or DNS_RESOLVERS=dns.address
 * await dns.close();
 */
export async function startBind(options: StartBindOptions = {}): Promise<BindServer> {
  const config = normalizeOptions(options);
  const dir = mkdtempSync(path.join(tmpdir(), 'service-bind-'));
  const server = new PrivateBind(dir, config);
  try {
    await server.firstStart(options.port);
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

/** A port free on 127.0.0.1 for both UDP and TCP right now (named needs both). */
export async function findFreeDnsPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const socket = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve(socket.address().port));
    });
    const tcpFree = await canListenTcp(port);
    socket.close();
    if (tcpFree) return port;
  }
  throw new Error('no port free on 127.0.0.1 for both UDP and TCP after 50 tries');
}

/**
 * A DNS port held for a BIND started later on it: the UDP and TCP sockets stay bound until
 * `release()`. For a port other servers must be told before BIND can start (their resolver);
 * a port only picked stayed free for the seconds those servers took to start, and under load
 * another process's socket took it, and BIND, on a fixed port, could not retry (issue 41).
 */
export async function reserveDnsPort(): Promise<{ port: number; release(): Promise<void> }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const udp = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
    });
    const tcp = net.createServer();
    const held = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (held) {
      let released: Promise<void> | undefined;
      return {
        port,
        // once: a caller's cleanup may release again what it already released
        release: () =>
          (released ??= (async () => {
            await new Promise<void>((resolve) => udp.close(() => resolve()));
            await new Promise<void>((resolve) => tcp.close(() => resolve()));
          })()),
      };
    }
    udp.close();
  }
  throw new Error('no port free on 127.0.0.1 for both UDP and TCP after 50 tries');
}

interface Config {
  zones: string[];
  secondaries: { zone: string; host: string; port: number }[];
  recursion: boolean;
  notify: { host: string; port: number }[];
  host: string;
  delegations: { zone: string; host: string; nameServers?: string[] }[];
  negativeTtl: number;
  nameServers: Record<string, string[]>;
  nameServerHosts: Record<string, string>;
}

class PrivateBind implements BindServer {
  port = 0;
  readonly tsig: TsigKey = { name: 'test-update-key', algorithm: 'hmac-sha256', secret: secret() };
  private controlPort = 0;
  private readonly rndcSecret = secret();
  private readonly serverId = `test-${randomBytes(6).toString('hex')}`;
  private child: ChildProcess | undefined;
  private readonly unguard: () => void;

  constructor(
    readonly dir: string,
    private readonly config: Config,
  ) {
    this.unguard = guardOnExit(() => {
      if (this.child?.pid !== undefined) killSync(this.child.pid);
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  get address(): string {
    return `${this.config.host}:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  resolver(): Resolver {
    const resolver = new Resolver({ timeout: 1000, tries: 2 });
    resolver.setServers([this.address]);
    return resolver;
  }

  /** Pick ports, write the files, start; a port grabbed by another process between the pick and named's bind gets new ports. */
  async firstStart(fixedPort: number | undefined): Promise<void> {
    this.writeZoneFiles();
    for (let attempt = 1; ; attempt++) {
      this.port = fixedPort ?? (await findFreeDnsPort());
      this.controlPort = await findFreeTcpPort([this.port]);
      this.writeConfig();
      try {
        await this.start();
        return;
      } catch (error) {
        if (!(error instanceof PortTakenError) || fixedPort !== undefined || attempt === 3) throw error;
      }
    }
  }

  async start(): Promise<void> {
    if (this.child) throw new Error(`named is already running on ${this.address}`);
    // named sets SO_REUSEPORT, so a second named (same user) binds a busy port without a word
    // and the two share its queries; and a TCP port held by anything else fails silently. A
    // plain bind (no SO_REUSEPORT) is refused in both cases, so ask that first.
    const host = this.config.host;
    if (!(await canListenUdp(this.port, host)) || !(await canListenTcp(this.port, host))) {
      throw new PortTakenError(`DNS port ${this.port} on ${host} is in use by another process`);
    }
    if (!(await canListenTcp(this.controlPort))) {
      throw new PortTakenError(
        `rndc control port ${this.controlPort} on 127.0.0.1 is in use by another process`,
      );
    }
    const stderr = openSync(path.join(this.dir, 'named.stderr'), 'a');
    // -f: stay in the foreground as our child; no -u: run as the current user, who owns the
    // directory (named refuses files it does not own even as root). -4: IPv4 only, like the listeners.
    const child = spawn(
      ...withParentDeathSignal(NAMED, ['-f', '-4', '-c', path.join(this.dir, 'named.conf')]),
      {
        cwd: this.dir,
        stdio: ['ignore', stderr, stderr],
      },
    );
    closeSync(stderr);
    this.child = child;
    const exit = watchDaemon(child, () => {
      if (this.child === child) this.child = undefined;
    });

    const deadline = Date.now() + START_TIMEOUT_MS;
    let halfUpSince: number | undefined;
    for (;;) {
      if (exit() !== undefined) throw new Error(`named failed to start (${exit()}):\n${this.diagnostics()}`);
      let state = await this.probe();
      if (state === 'ready') return;
      // named binds UDP and TCP together; when only one answers for long, something took the
      // other half of the port after the check above (named does not even log it).
      if (state === 'half') {
        halfUpSince ??= Date.now();
        if (Date.now() - halfUpSince > 2000) state = 'foreign';
      }
      if (state === 'foreign' || Date.now() > deadline) {
        await this.stop();
        if (state === 'foreign')
          throw new PortTakenError(`port ${this.port} on ${this.config.host} is served by another process`);
        throw new Error(
          `named did not answer on ${this.address} within ${START_TIMEOUT_MS} ms:\n${this.diagnostics()}`,
        );
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    // Updates already sit in journals (written before NOERROR), which replay on start; sync
    // also folds them into the zone files, readable when debugging. A hung named still gets stopped.
    await this.rndc(['sync']).catch(() => {});
    child.ref();
    await terminate(child, ['SIGTERM', 'SIGKILL'], 10_000);
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
    this.unguard();
  }

  async update(zone: string, commands: readonly string[]): Promise<void> {
    const origin = normalizeZone(zone);
    for (const command of commands) {
      if (/[\r\n]/.test(command))
        throw new RangeError(`an nsupdate command must be one line: ${JSON.stringify(command)}`);
    }
    const script = [
      `server ${this.config.host} ${this.port}`,
      // providers accept any owner name (an address at <token>._domainkey: a proxied record)
      'check-names no',
      `zone ${origin}.`,
      ...commands,
      'send',
      '',
    ].join('\n');
    try {
      await run('nsupdate', ['-k', path.join(this.dir, 'tsig.key'), '-t', '5'], script);
    } catch (error) {
      // nsupdate only knows the rcode; named's log says why (e.g. an in-zone MX target without
      // an address record is REFUSED by check-integrity).
      const why = this.logLines(`updating zone '${origin}/IN'`).slice(-2).join('\n');
      throw new Error(
        `nsupdate for ${origin} failed: ${(error as Error).message.trim()}${why ? `\n${why}` : ''}`,
      );
    }
  }

  async addRecord(name: string, type: string, value: string | readonly string[], ttl = 60): Promise<void> {
    const owner = absoluteName(name);
    const rrtype = recordType(type);
    if (!Number.isInteger(ttl) || ttl < 0 || ttl > 2 ** 31 - 1) throw new RangeError(`bad TTL ${ttl}`);
    let rdata: string;
    if (rrtype === 'TXT') rdata = txtRdata(value);
    else if (typeof value === 'string' && !/[\r\n]/.test(value)) rdata = value;
    else throw new RangeError(`a ${rrtype} value must be one line of presentation format`);
    const zone = this.zoneOf(owner);
    // RFC 2136 §3.4.2.2: the server ignores (with NOERROR) a non-CNAME add at a CNAME; the
    // prerequisite turns that into YXRRSET so the caller hears about it.
    const prereq = rrtype === 'CNAME' ? [] : [`prereq nxrrset ${owner} CNAME`];
    await this.update(zone, [...prereq, `update add ${owner} ${ttl} ${rrtype} ${rdata}`]);
    if (rrtype === 'CNAME') {
      // ...and a CNAME add where other data exists; no prerequisite can say "no other data", so look.
      const found = await this.resolver()
        .resolveCname(owner)
        .catch(() => []);
      const wanted = rdata.replace(/\.$/, '').toLowerCase();
      if (!found.some((target) => target.toLowerCase() === wanted)) {
        throw new Error(`the server ignored CNAME ${owner} -> ${rdata}: the name holds other records`);
      }
    }
  }

  async deleteRecords(name: string, type?: string): Promise<void> {
    const owner = absoluteName(name);
    const rrtype = type === undefined ? '' : ` ${recordType(type)}`;
    await this.update(this.zoneOf(owner), [`update delete ${owner}${rrtype}`]);
  }

  async retransfer(zone: string): Promise<void> {
    const origin = normalizeZone(zone);
    if (!this.config.secondaries.some((s) => s.zone === origin)) {
      throw new RangeError(`${origin} is not a secondary zone of this server`);
    }
    await this.rndc(['retransfer', origin]);
  }

  async queriesReceived(): Promise<number> {
    const file = path.join(this.dir, 'named.stats');
    rmSync(file, { force: true });
    await this.rndc(['stats']);
    // "++ Incoming Requests ++" then lines such as "   1234 QUERY" (opcodes)
    const dump = readFileSync(file, 'utf8');
    const section = dump.slice(dump.indexOf('++ Incoming Requests ++'));
    return Number(/^\s*(\d+) QUERY$/m.exec(section)?.[1] ?? 0);
  }

  async waitFor<K extends RecordType>(
    name: string,
    type: K,
    predicate: (answers: RecordAnswers[K]) => boolean = (answers) => answers.length > 0,
    timeoutMs = 5000,
  ): Promise<RecordAnswers[K]> {
    const resolver = new Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([this.address]);
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    for (;;) {
      let answers: RecordAnswers[K] | undefined;
      try {
        const result: unknown = await resolver.resolve(name, type);
        answers = (Array.isArray(result) ? result : [result]) as RecordAnswers[K];
        last = JSON.stringify(answers);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTFOUND' || code === 'ENODATA') answers = [] as unknown as RecordAnswers[K];
        last = String(code ?? error);
      }
      if (answers !== undefined && predicate(answers)) return answers;
      if (Date.now() > deadline)
        throw new Error(`waitFor ${name} ${type} on ${this.address}: still ${last} after ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  private zoneOf(owner: string): string {
    const name = owner.slice(0, -1);
    const zone = this.config.zones
      .filter((z) => name === z || name.endsWith(`.${z}`))
      .sort((a, b) => b.length - a.length)[0];
    if (zone === undefined)
      throw new RangeError(`${name} is in none of the primary zones [${this.config.zones.join(', ')}]`);
    return zone;
  }

  private rndc(args: string[]): Promise<string> {
    return run('rndc', ['-c', path.join(this.dir, 'rndc.conf'), ...args]);
  }

  /**
   * `ready`: our named answers over TCP and UDP and every primary zone answers SOA; `half`: only
   * one transport answers; `foreign`: another server answers TCP.
   *
   * Identity is asked over TCP only: `id.server` (our random `server-id`) lives in BIND's
   * built-in CHAOS view, which rate-limits UDP responses to a few per second and silently drops
   * the rest. Over UDP any DNS answer, even SERVFAIL or REFUSED, shows the socket is served.
   */
  private async probe(): Promise<'ready' | 'starting' | 'half' | 'foreign'> {
    const identity = run('dig', [
      `@${this.config.host}`,
      '-p',
      String(this.port),
      '+time=1',
      '+tries=1',
      '+tcp',
      '+short',
      'id.server',
      'CH',
      'TXT',
    ])
      // dig's own `;;` remarks and an early empty answer (named still loading) are no answer yet.
      .then(
        (out) =>
          out
            .split('\n')
            .filter((line) => line.trim() !== '' && !line.startsWith(';;'))
            .join('\n') || undefined,
      )
      .catch(() => undefined);
    const resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([this.address]);
    const zones = [...this.config.zones, ...(this.config.recursion ? ['.'] : [])];
    const udp = Promise.all(
      (zones.length > 0 ? zones : ['.']).map((zone) =>
        resolver.resolveSoa(zone).then(
          () => 'loaded' as const,
          (error: NodeJS.ErrnoException) =>
            error.code === 'ECONNREFUSED' || error.code === 'ETIMEOUT'
              ? ('silent' as const)
              : ('answering' as const),
        ),
      ),
    );
    const [tcp, soas] = await Promise.all([identity, udp]);
    const udpUp = soas.some((state) => state !== 'silent');
    if (tcp !== undefined && tcp !== `"${this.serverId}"`) return 'foreign';
    if (tcp === undefined && !udpUp) return 'starting';
    if (tcp === undefined || !udpUp) return 'half';
    return zones.length === 0 || soas.every((state) => state === 'loaded') ? 'ready' : 'starting';
  }

  private diagnostics(): string {
    const tail = (file: string) => this.logLines('', file).slice(-20).join('\n');
    return `${tail('named.stderr')}\n${tail('named.log')}`.trim();
  }

  private logLines(containing: string, file = 'named.log'): string[] {
    try {
      return readFileSync(path.join(this.dir, file), 'utf8')
        .split('\n')
        .filter((line) => line !== '' && line.includes(containing));
    } catch {
      return [];
    }
  }

  private writeZoneFiles(): void {
    const { host, negativeTtl } = this.config;
    // the SOA's own TTL bounds negative caching too (RFC 2308 §5: the lesser of the two counts)
    const soa = (origin: string, ns: string) =>
      `@ ${negativeTtl} SOA ${ns} hostmaster.${origin === '.' ? ns : origin} ${SOA_TIMERS} ${negativeTtl}`;
    /** The zone's NS names, absolute; an address record for those inside the zone. */
    const nameServersOf = (zone: string) => this.config.nameServers[zone] ?? [`ns.${zone}`];
    const zoneFile = (origin: string, ns: string[], extra: string[] = []) =>
      [
        `$ORIGIN ${origin}`,
        '$TTL 60',
        soa(origin, `${ns[0]}.`),
        ...ns.map((name) => `@ NS ${name}.`),
        ...ns
          .filter((name) => origin === '.' || `${name}.`.endsWith(`.${origin}`))
          .map((name) => `${name}. A ${this.config.nameServerHosts[name] ?? host}`),
        ...extra,
        '',
      ].join('\n');
    for (const zone of this.config.zones)
      writeFileSync(path.join(this.dir, primaryFile(zone)), zoneFile(`${zone}.`, nameServersOf(zone)));
    if (this.config.recursion)
      writeFileSync(
        path.join(this.dir, 'root.db'),
        zoneFile(
          '.',
          ['ns.root-servers.invalid'],
          // The root is authoritative for every name it does not delegate, so it answers the
          // addresses of out-of-zone name servers (a provider's) itself.
          this.config.delegations.flatMap((d) => [
            ...(d.nameServers ?? nameServersOf(d.zone)).map((name) => `${d.zone}. NS ${name}.`),
            ...(d.nameServers ?? nameServersOf(d.zone)).map((name) => `${name}. A ${d.host}`),
          ]),
        ),
      );
    const key = `key "${this.tsig.name}" { algorithm ${this.tsig.algorithm}; secret "${this.tsig.secret}"; };\n`;
    writeFileSync(path.join(this.dir, 'tsig.key'), key, { mode: 0o600 });
  }

  private writeConfig(): void {
    const { dir, config } = this;
    const q = (file: string) => JSON.stringify(path.join(dir, file));
    const notify =
      config.notify.length === 0
        ? 'notify no;'
        : `notify explicit; also-notify { ${config.notify.map((n) => `${n.host} port ${n.port};`).join(' ')} };`;
    const zones = [
      ...(config.recursion ? ['zone "." { type primary; file "root.db"; notify no; };'] : []),
      ...config.zones.map(
        (zone) =>
          `zone "${zone}" { type primary; file "${primaryFile(zone)}"; allow-update { key "${this.tsig.name}"; }; ${notify} };`,
      ),
      ...config.secondaries.map(
        (s) =>
          `zone "${s.zone}" { type secondary; file "secondary-${s.zone}.db"; masterfile-format text; ` +
          `primaries { ${s.host} port ${s.port}; }; request-ixfr no; allow-notify { 127.0.0.1; }; notify no; };`,
      ),
    ];
    const recursion = config.recursion
      ? 'recursion yes; allow-recursion { 127.0.0.0/8; }; allow-query-cache { 127.0.0.0/8; };'
      : 'recursion no;';
    const conf = `
key "${this.tsig.name}" { algorithm ${this.tsig.algorithm}; secret "${this.tsig.secret}"; };
key "rndc-key" { algorithm hmac-sha256; secret "${this.rndcSecret}"; };
controls { inet 127.0.0.1 port ${this.controlPort} allow { 127.0.0.1; } keys { "rndc-key"; }; };
options {
  directory ${q('')};
  pid-file ${q('named.pid')};
  lock-file ${q('named.lock')};
  session-keyfile ${q('session.key')};
  managed-keys-directory ${q('')};
  dump-file ${q('named.dump')};
  statistics-file ${q('named.stats')};
  listen-on port ${this.port} { ${config.host}; };
  listen-on-v6 { none; };
  server-id "${this.serverId}";
  ${recursion}
  allow-query { 127.0.0.0/8; };
  allow-transfer { 127.0.0.1; };
  dnssec-validation no;
  notify-delay 0;
  check-names primary ignore;
};
logging {
  channel file { file ${q('named.log')} versions 0 size 10m; severity info; print-time yes; };
  category default { file; };
  category lame-servers { null; };
};
${zones.join('\n')}
`;
    writeFileSync(path.join(dir, 'named.conf'), conf, { mode: 0o600 });
    const rndcConf = `key "rndc-key" { algorithm hmac-sha256; secret "${this.rndcSecret}"; };
options { default-key "rndc-key"; default-server 127.0.0.1; default-port ${this.controlPort}; };
`;
    writeFileSync(path.join(dir, 'rndc.conf'), rndcConf, { mode: 0o600 });
  }
}

/** named answered, but not as this instance: the port was taken after we picked it. */

function normalizeOptions(options: StartBindOptions): Config {
  const zones = (options.zones ?? []).map(normalizeZone);
  const secondaries = (options.secondaries ?? []).map((s) => ({
    zone: normalizeZone(s.zone),
    ...parseAddress(s.primary),
  }));
  const all = [...zones, ...secondaries.map((s) => s.zone)];
  const duplicate = all.find((zone, i) => all.indexOf(zone) !== i);
  if (duplicate !== undefined) throw new RangeError(`zone ${duplicate} is configured twice`);
  if (options.port !== undefined && !isPort(options.port)) throw new RangeError(`bad port ${options.port}`);
  return {
    zones,
    secondaries,
    recursion: options.recursion ?? false,
    notify: (options.notify ?? []).map(parseAddress),
    host: loopbackAddress(options.host ?? '127.0.0.1'),
    delegations: (options.delegations ?? []).map((d) => ({
      zone: normalizeZone(d.zone),
      host: loopbackAddress(d.host),
      ...(d.nameServers && {
        nameServers: d.nameServers.map((name) => name.toLowerCase().replace(/\.$/, '')),
      }),
    })),
    negativeTtl: options.negativeTtl ?? 10,
    nameServers: Object.fromEntries(
      Object.entries(options.nameServers ?? {}).map(([zone, names]) => [
        normalizeZone(zone),
        names.map((name) => name.toLowerCase().replace(/\.$/, '')),
      ]),
    ),
    nameServerHosts: Object.fromEntries(
      Object.entries(options.nameServerHosts ?? {}).map(([name, address]) => [
        name.toLowerCase().replace(/\.$/, ''),
        loopbackAddress(address),
      ]),
    ),
  };
}

function normalizeZone(zone: string): string {
  const name = zone.trim().toLowerCase().replace(/\.$/, '');
  if (!ZONE_NAME.test(name)) throw new RangeError(`not a zone name: ${JSON.stringify(zone)}`);
  return name;
}

/** A fully qualified owner name with its trailing dot, so nsupdate never appends an origin. */
function absoluteName(name: string): string {
  return `${normalizeZone(name)}.`;
}

function recordType(type: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(type))
    throw new RangeError(`not a record type: ${JSON.stringify(type)}`);
  return type.toUpperCase();
}

function parseAddress(address: string): { host: string; port: number } {
  const match = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}):(\d{1,5})$/.exec(address);
  if (!match || !isPort(Number(match[2])))
    throw new RangeError(`expected '127.0.0.1:PORT', got ${JSON.stringify(address)}`);
  return { host: match[1]!, port: Number(match[2]) };
}

function isPort(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port < 65536;
}

function primaryFile(zone: string): string {
  return `primary-${zone}.db`;
}

/**
 * TXT rdata in nsupdate's presentation format: each string quoted, `"` and `\` escaped, bytes
 * outside printable ASCII as `\DDD`, and a long text cut into strings of at most 255 bytes
 * (RFC 1035 §3.3.14), never inside a UTF-8 sequence.
 */
export function txtRdata(value: string | readonly string[]): string {
  const strings = typeof value === 'string' ? splitTxt(value) : [...value];
  if (strings.length === 0) throw new RangeError('a TXT record needs at least one string');
  return strings
    .map((text) => {
      const bytes = Buffer.from(text, 'utf8');
      if (bytes.length > 255) throw new RangeError(`a TXT string is at most 255 bytes, got ${bytes.length}`);
      let out = '';
      for (const byte of bytes) {
        if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
        else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
        else out += `\\${String(byte).padStart(3, '0')}`;
      }
      return `"${out}"`;
    })
    .join(' ');
}

function splitTxt(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const strings: string[] = [];
  let start = 0;
  do {
    let end = Math.min(start + 255, bytes.length);
    // Back off from a UTF-8 continuation byte so every string decodes on its own.
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    strings.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
  } while (start < bytes.length);
  return strings;
}

function secret(): string {
  return randomBytes(32).toString('base64');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function canListenUdp(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });
}

function canListenTcp(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function loopbackAddress(host: string): string {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host))
    throw new RangeError(`expected a 127.x.y.z address, got ${host}`);
  return host;
}

/** Run a command to completion; rejects with its output when it exits non-zero. */
function run(command: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${`${stderr}${stdout}`.trim() || error.message}`));
      else resolve(stdout);
    });
    // A command that never reads its input (rndc, ip) may exit before the write lands: the pipe
    // then fails with EPIPE, which without a listener is an uncaught exception in the test
    // process (seen failing client.test.ts's after hook). The exit status tells how it went.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

function killSync(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}
