/**
 * A throwaway pebble (Let's Encrypt's ACME test server, Debian package `pebble`) on free ports of
 * 127.0.0.1, for tests that obtain certificates over ACME (RFC 8555) and really get challenged:
 * `PEBBLE_VA_ALWAYS_VALID` is never set, so pebble connects to the test's own listener (tls-alpn-01
 * on `tlsPort`) and resolves names with the test's DNS server.
 *
 * The config, the certificate of pebble's own HTTPS listeners and the log live in one temporary
 * directory. pebble runs in the foreground as our child, so its pid is ours to stop; an exit
 * guard kills it if the test process dies first.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  findFreeTcpPort,
  PortTakenError,
  terminate,
  watchDaemon,
  withParentDeathSignal,
} from './child-process.js';
import { guardOnExit } from './exit-guard.js';

const run = promisify(execFile);
const PEBBLE = existsSync('/usr/bin/pebble') ? '/usr/bin/pebble' : 'pebble';
const START_TIMEOUT_MS = 10_000;

/** Options of {@link startPebble}. */
export interface StartPebbleOptions {
  /** The port on the validated host's address that pebble connects to for tls-alpn-01 (443 in real life). */
  tlsPort: number;
  /** `'127.0.0.1:PORT'` of the DNS server pebble resolves the names it validates with (e.g. a `startBind` one). */
  dnsServer: string;
  /** Lifetime of issued certificates in seconds; 90 days by default, as Let's Encrypt's. */
  certificateValiditySeconds?: number;
}

/** A running pebble. */
export interface PebbleServer {
  /** The ACME directory, `https://127.0.0.1:PORT/dir`. */
  readonly directoryUrl: string;
  /**
   * The self-signed certificate (PEM) of pebble's own HTTPS listeners (ACME and management):
   * what an ACME client must trust to talk to it. Not the issuing root.
   */
  readonly serverCa: string;
  readonly pid: number | undefined;
  /** The root that issued certificates chain to (management `/roots/0`); pebble makes a new one at each start. */
  issuingRoot(): Promise<string>;
  /**
   * How many requests pebble has logged so far, all of them or those of one `method` and path
   * (e.g. `'POST', '/order-plz'`: new orders). pebble logs each request as it handles it.
   */
  requests(method?: string, pathname?: string): number;
  /** pebble's log so far. */
  log(): string;
  /** Stop pebble and delete its directory. */
  close(): Promise<void>;
}

/**
 * Start pebble and resolve once its directory answers.
 *
 * @example
 * const pebble = await startPebble({ tlsPort: server.address().port, dnsServer: dns.address });
 * const client = new acme.Client({ directoryUrl: pebble.directoryUrl, ... }); // trusting pebble.serverCa
 * await pebble.close();
 */
export async function startPebble(options: StartPebbleOptions): Promise<PebbleServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'service-pebble-'));
  const pebble = new PrivatePebble(dir, options);
  try {
    await pebble.firstStart();
  } catch (error) {
    await pebble.close();
    throw error;
  }
  return pebble;
}

class PrivatePebble implements PebbleServer {
  serverCa = '';
  private port = 0;
  private managementPort = 0;
  private child: ChildProcess | undefined;
  private readonly unguard: () => void;
  private readonly logFile: string;

  constructor(
    private readonly dir: string,
    private readonly options: StartPebbleOptions,
  ) {
    this.logFile = path.join(dir, 'pebble.log');
    this.unguard = guardOnExit(() => {
      if (this.child?.pid !== undefined) {
        try {
          process.kill(this.child.pid, 'SIGKILL');
        } catch {}
      }
      rmSync(this.dir, { recursive: true, force: true });
    });
  }

  get directoryUrl(): string {
    return `https://127.0.0.1:${this.port}/dir`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async firstStart(): Promise<void> {
    await this.writeListenerCertificate();
    for (let attempt = 1; ; attempt++) {
      this.port = await findFreeTcpPort([this.options.tlsPort]);
      this.managementPort = await findFreeTcpPort([this.options.tlsPort, this.port]);
      try {
        await this.start();
        return;
      } catch (error) {
        if (!(error instanceof PortTakenError) || attempt === 3) throw error;
      }
    }
  }

  /** P-256, for 127.0.0.1 (the directory URL's host); pebble's packaged test certificate is not in Debian's package. */
  private async writeListenerCertificate(): Promise<void> {
    const [key, cert] = ['listener.key', 'listener.pem'].map((f) => path.join(this.dir, f)) as [
      string,
      string,
    ];
    await run('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-days', '2', '-subj', '/CN=pebble test listener', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', key, '-out', cert],
    ]);
    this.serverCa = readFileSync(cert, 'utf8');
  }

  private async start(): Promise<void> {
    const config = path.join(this.dir, 'pebble-config.json');
    writeFileSync(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${this.port}`,
          managementListenAddress: `127.0.0.1:${this.managementPort}`,
          certificate: path.join(this.dir, 'listener.pem'),
          privateKey: path.join(this.dir, 'listener.key'),
          // http-01 is not used: nothing listens on the discard port.
          httpPort: 9,
          tlsPort: this.options.tlsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
          certificateValidityPeriod: this.options.certificateValiditySeconds ?? 90 * 86_400,
        },
      }),
    );
    const { PEBBLE_VA_ALWAYS_VALID: _never, ...inherited } = process.env;
    const env = {
      ...inherited,
      // validate at once instead of after a random 0–15 s
      PEBBLE_VA_NOSLEEP: '1',
      // every order is validated anew (no authorization reused half of the time) and no good nonce
      // is refused at random, so request counts and validations are exact
      PEBBLE_AUTHZREUSE: '0',
      PEBBLE_WFE_NONCEREJECT: '0',
    };
    writeFileSync(this.logFile, '');
    const log = openSync(this.logFile, 'a');
    const child = spawn(
      ...withParentDeathSignal(PEBBLE, ['-config', config, '-dnsserver', this.options.dnsServer]),
      { cwd: this.dir, env, stdio: ['ignore', log, log] },
    );
    closeSync(log);
    this.child = child;
    const exit = watchDaemon(child, () => {
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const why = exit();
      if (why !== undefined) {
        if (/address already in use/.test(this.log()))
          throw new PortTakenError(`pebble's port was taken: ${this.log()}`);
        throw new Error(`pebble failed to start (${why}):\n${this.log()}`);
      }
      if (/Listening on: /.test(this.log()) && (await this.get(this.directoryUrl).catch(() => undefined)))
        return;
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`pebble did not answer within ${START_TIMEOUT_MS} ms:\n${this.log()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  issuingRoot(): Promise<string> {
    return this.get(`https://127.0.0.1:${this.managementPort}/roots/0`);
  }

  requests(method?: string, pathname?: string): number {
    const lines = this.log().match(/ (GET|HEAD|POST) (\S+) -> calling handler\(\)$/gm) ?? [];
    return lines.filter((line) => {
      const [, m, p] = / (\S+) (\S+) -> /.exec(line)!;
      return (method === undefined || m === method) && (pathname === undefined || p === pathname);
    }).length;
  }

  log(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  private async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.ref();
    await terminate(child, ['SIGTERM', 'SIGKILL'], 5000);
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
    this.unguard();
  }

  /** A GET to pebble's own listeners, trusting only their certificate; rejects unless 200. */
  private get(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = https.get(url, { ca: this.serverCa, timeout: 2000 }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body)
            : reject(new Error(`GET ${url}: ${response.statusCode} ${body}`)),
        );
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
      request.on('error', reject);
    });
  }
}
