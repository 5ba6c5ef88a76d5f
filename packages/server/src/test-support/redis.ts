/**
 * A private Redis for tests of what several server processes share (issue 19): Debian's
 * `redis-server` on a free port of 127.0.0.1, in the foreground as our child, nothing written to
 * disk (`--save ''`, `--appendonly no`), so its pid is ours to stop, pause and restart; an exit
 * guard kills it if the test process dies first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  launchOnFreePort,
  PortTakenError,
  terminate,
  watchDaemon,
  withParentDeathSignal,
} from './child-process.js';
import { guardOnExit } from './exit-guard.js';

/** A Redis server that a test may stop and start again on the same port. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`, the same across restarts. */
  readonly url: string;
  /** The server's pid while it runs. */
  readonly pid: number | undefined;
  /** Kills it outright (SIGKILL): connections drop, counts are gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Stops it and deletes its directory. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;

/**
 * Start a private Redis and resolve once it answers PING.
 *
 * @example
 * const redis = await startRedis(); // in before(): REDIS_URL=redis.url
 * process.kill(redis.pid!, 'SIGSTOP'); // a Redis that hangs
 * await redis.stop(); // in after()
 */
export async function startRedis(): Promise<RedisServer> {
  return launchOnFreePort(new PrivateRedis());
}

class PrivateRedis implements RedisServer {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'service-redis-'));
  private port = 0;
  private child: ChildProcess | undefined;
  private readonly unguard = guardOnExit(() => {
    this.child?.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  });

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async launch(port: number): Promise<void> {
    this.port = port;
    const args = [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', this.dir],
      ...['--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', ''],
    ];
    const child = spawn(...withParentDeathSignal('redis-server', args), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exit = watchDaemon(child, () => {
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exit() !== undefined) {
        if (/address already in use/i.test(output)) throw new PortTakenError(output);
        throw new Error(`redis-server failed to start (${exit()}):\n${output}`);
      }
      if (await answersPing(port)) return;
      if (Date.now() > deadline) {
        throw new Error(`redis-server did not answer within ${START_TIMEOUT_MS} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async kill(): Promise<void> {
    if (this.child) await terminate(this.child, ['SIGKILL'], 0);
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.launch(this.port);
  }

  async stop(): Promise<void> {
    const child = this.child;
    // A paused server ignores SIGTERM until it runs again.
    if (child) {
      child.kill('SIGCONT');
      await terminate(child, ['SIGTERM', 'SIGKILL'], 5000);
    }
    rmSync(this.dir, { recursive: true, force: true });
    this.unguard();
  }
}

/** Whether a Redis on `port` answers PING (the inline command form, RESP's simplest). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      reply += d;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
