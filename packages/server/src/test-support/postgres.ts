/**
 * A throwaway PostgreSQL cluster for tests that run the store against the real thing: one
 * cluster per test process, one fresh database per test.
 *
 * The cluster lives in a temporary directory, listens only on 127.0.0.1 (its unix socket stays
 * in that directory) and runs `postgres` in the foreground as our child, never daemonized by
 * `pg_ctl`, so its pid is ours to stop; an exit guard stops it if the test process dies first.
 * initdb and postgres refuse to run as root, so as root both run as the `postgres` user.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  findFreeTcpPort,
  hasSetpriv,
  PortTakenError,
  terminate,
  watchDaemon,
  withParentDeathSignal,
} from './child-process.js';
import { guardOnExit } from './exit-guard.js';

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** Where `TEST_DATABASE_URL` is read from; `process.env` by default. */
  env?: Record<string, string | undefined>;
  /**
   * Keep PostgreSQL's durability settings (fsync, synchronous commit) as in production, for
   * benchmarks that compare it with SQLite's synchronous commits. Off by default for speed.
   */
  durable?: boolean;
  /** A private cluster's `max_connections`: 200 for one test process, more for one shared by several. */
  maxConnections?: number;
}

/** A PostgreSQL server to create test databases in. */
export interface PostgresServer {
  /** `postgres://…` of the server's `postgres` database, for administration. */
  readonly url: string;
  /** The postmaster's pid while a private cluster runs; `undefined` for a `TEST_DATABASE_URL` server. */
  readonly pid: number | undefined;
  /** The private cluster's directory (data, socket, `postgres.log`); `undefined` for a `TEST_DATABASE_URL` server. */
  readonly dir: string | undefined;
  /**
   * Create a fresh database and return its URL: empty, or a copy of `template` (a database
   * created here, with no connection open to it).
   */
  createDatabase(options?: { template?: string }): Promise<string>;
  /**
   * A private cluster: shut it down (fast shutdown, waiting for every process to exit) and
   * delete its directory. A `TEST_DATABASE_URL` server: drop the databases created here.
   */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/**
 * A small pool on a test database. pg's `pool.end()` resolves before its sockets close, so a
 * connection can still be open when `stop()` drops its database `WITH (FORCE)` or the server
 * shuts down; the server then ends it with 57P01 ("terminating connection due to administrator
 * command"), which is expected, and without a listener would crash the test process after its
 * tests passed.
 */
export function testPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => {});
  return pool;
}

/**
 * Start a private PostgreSQL cluster and resolve once it accepts connections, or use the server
 * at `TEST_DATABASE_URL` when that is set (CI with a service container, a developer's server).
 *
 * @example
 * const postgres = await startPostgres(); // in before()
 * const url = await postgres.createDatabase(); // in each test: DATABASE_URL=url
 * await postgres.stop(); // in after()
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const external = (options.env ?? process.env).TEST_DATABASE_URL;
  if (external !== undefined && external !== '') {
    if (!/^postgres(ql)?:\/\//i.test(external)) {
      throw new RangeError(`TEST_DATABASE_URL must be a postgres:// URL, got ${JSON.stringify(external)}`);
    }
    return new ExternalPostgres(external);
  }
  const cluster = new PrivateCluster(options.durable ?? false, options.maxConnections ?? 200);
  try {
    await cluster.start();
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Creates databases named `test_<random>` through a small admin pool, and remembers them. */
abstract class Databases {
  protected readonly created: string[] = [];
  private pool: pg.Pool | undefined;

  abstract readonly url: string;

  async createDatabase(options: { template?: string } = {}): Promise<string> {
    const name = `test_${randomBytes(8).toString('hex')}`;
    if (!this.pool) {
      this.pool = testPool(this.url, 2);
    }
    // The names are ours (hex), so quoting them is enough; CREATE DATABASE takes no parameters.
    const template = options.template === undefined ? '' : ` TEMPLATE "${databaseName(options.template)}"`;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.pool.query(`CREATE DATABASE "${name}"${template}`);
        break;
      } catch (error) {
        // 55006: a connection to the template was closed by its client, and its server process
        // has not exited yet (PostgreSQL copies only a database nobody is connected to)
        if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    this.created.push(name);
    const url = new URL(this.url);
    url.pathname = `/${name}`;
    return url.toString();
  }

  protected async dropCreated(): Promise<void> {
    if (this.pool && this.created.length > 0) {
      // WITH (FORCE) (PostgreSQL 13+): a test that leaked a connection must not keep its database.
      for (const name of this.created.splice(0))
        await this.pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    await this.closePool();
  }

  protected async closePool(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }
}

class ExternalPostgres extends Databases implements PostgresServer {
  readonly pid = undefined;
  readonly dir = undefined;

  constructor(readonly url: string) {
    super();
  }

  stop(): Promise<void> {
    return this.dropCreated();
  }
}

class PrivateCluster extends Databases implements PostgresServer {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'service-pg-'));
  private port = 0;
  private child: ChildProcess | undefined;
  private readonly bin = postgresBinDir();
  /** As root, initdb and postgres run as this user (they refuse root). */
  private readonly user = process.getuid?.() === 0 ? 'postgres' : undefined;
  private readonly unguard = guardOnExit(() => {
    if (this.child?.pid !== undefined) stopSync(this.child.pid);
    rmSync(this.dir, { recursive: true, force: true });
  });

  constructor(
    private readonly durable: boolean,
    private readonly maxConnections: number,
  ) {
    super();
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const { user } = this;
    if (user !== undefined) {
      // postgres refuses a data directory it does not own, and must create its files here.
      const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
      chownSync(this.dir, id('-u'), id('-g'));
    }
    // trust on loopback: the cluster lives for one test process and listens only on 127.0.0.1.
    // --no-sync: nothing here has to survive a machine crash.
    await this.run('initdb', [
      ...['-D', path.join(this.dir, 'data'), '-U', 'postgres', '-A', 'trust'],
      ...['-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
    ]);
    for (let attempt = 1; ; attempt++) {
      this.port = await findFreeTcpPort();
      try {
        await this.launch();
        return;
      } catch (error) {
        // The port was free when picked, but another process may bind it before postgres does.
        if (!(error instanceof PortTakenError) || attempt === 3) throw error;
      }
    }
  }

  async stop(): Promise<void> {
    await this.closePool();
    const child = this.child;
    if (child) {
      child.ref();
      // SIGINT is PostgreSQL's fast shutdown: roll back, disconnect clients, checkpoint, exit
      // after every backend has; SIGQUIT (immediate) and SIGKILL only if it hangs.
      await terminate(child, ['SIGINT', 'SIGQUIT', 'SIGKILL'], 10_000);
    }
    rmSync(this.dir, { recursive: true, force: true });
    this.unguard();
  }

  private async launch(): Promise<void> {
    const logFile = path.join(this.dir, 'postgres.log');
    const log = openSync(logFile, 'a');
    const settings = {
      listen_addresses: '127.0.0.1',
      port: String(this.port),
      unix_socket_directories: this.dir,
      // Durability off for test speed (a crash loses the cluster, which is thrown away
      // anyway), unless a benchmark asks for production settings.
      ...(!this.durable && { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' }),
      // Every test of the process (or of the run: scripts/test.mjs) shares this cluster, each
      // with its own pool.
      max_connections: String(this.maxConnections),
    };
    const args = [
      '-D',
      path.join(this.dir, 'data'),
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ];
    const child = spawn(...this.command('postgres', args), { cwd: this.dir, stdio: ['ignore', log, log] });
    closeSync(log);
    this.child = child;
    const exit = watchDaemon(child, () => {
      if (this.child === child) this.child = undefined;
    });

    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exit() !== undefined) {
        const tail = readTail(logFile);
        if (/could not bind|address already in use/i.test(tail)) throw new PortTakenError(tail);
        throw new Error(`postgres failed to start (${exit()}):\n${tail}`);
      }
      if (await this.acceptsConnections()) return;
      if (Date.now() > deadline) {
        throw new Error(
          `postgres did not accept connections within ${START_TIMEOUT_MS} ms:\n${readTail(logFile)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private async acceptsConnections(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false; // refused while starting up, or "the database system is starting up"
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** `[file, args]` for a PostgreSQL program, as the `postgres` user when we are root. */
  private command(program: string, args: string[]): [string, string[]] {
    const file = this.bin === undefined ? program : path.join(this.bin, program);
    if (!hasSetpriv() && this.user !== undefined) return ['runuser', ['-u', this.user, '--', file, ...args]];
    // as the postgres user, and killed by the kernel with the test process
    const as =
      this.user === undefined ? [] : [`--reuid=${this.user}`, `--regid=${this.user}`, '--init-groups'];
    return withParentDeathSignal(file, args, as);
  }

  private run(program: string, args: string[]): Promise<void> {
    const [file, fullArgs] = this.command(program, args);
    return new Promise((resolve, reject) =>
      execFile(file, fullArgs, { cwd: this.dir, timeout: 120_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${program} failed: ${stderr || stdout || error.message}`)) : resolve(),
      ),
    );
  }
}

/** The newest `/usr/lib/postgresql/<version>/bin` (Debian keeps it off PATH), else PATH. */
function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n').trim();
  } catch {
    return '';
  }
}

/**
 * From an exit handler, where nothing asynchronous runs: immediate shutdown (SIGQUIT), which
 * still stops the backends and removes shared memory, waiting up to 3 s; then SIGKILL.
 */
function stopSync(pid: number): void {
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + 3000; Date.now() < deadline && isRunning(pid); )
    Atomics.wait(pause, 0, 0, 20);
  try {
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  } catch {}
}

/** Our exited child stays a zombie until reaped, which no exit handler does: count that as gone. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The database a `postgres://…/name` URL names. */
function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  assert.match(name, /^test_[0-9a-f]{16}$/, 'a template is a database createDatabase made');
  return name;
}
