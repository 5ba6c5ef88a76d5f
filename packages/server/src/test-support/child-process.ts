/**
 * What the test servers we start (BIND, PostgreSQL) share about their processes: a free port,
 * the error of a port someone else took meanwhile, a kernel-enforced death with the test
 * process, and stopping with escalating signals.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

/** The server could not bind the port picked for it: someone took it after we picked it. */
export class PortTakenError extends Error {}

/** A TCP port free on 127.0.0.1 just now, other than those in `avoid`. */
export async function findFreeTcpPort(avoid: readonly number[] = []): Promise<number> {
  for (;;) {
    const server = net.createServer();
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
    await new Promise((resolve) => server.close(resolve));
    if (!avoid.includes(port)) return port;
  }
}

/**
 * Launches `server` on a free port, picking another when someone took it between the pick and
 * the bind (three tries); stops it on any other failure. Returns it running.
 */
export async function launchOnFreePort<
  T extends { launch(port: number): Promise<void>; stop(): Promise<void> },
>(server: T): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      await server.launch(await findFreeTcpPort());
      return server;
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) {
        await server.stop();
        throw error;
      }
    }
  }
}

/**
 * `[file, args]` that run `command` under `setpriv --pdeathsig KILL` where available: if the
 * test process is killed outright (SIGKILL, OOM), the kernel kills the server too, where no
 * exit handler can run. setpriv execs in place, so the pid stays the server's. `setprivArgs`
 * go before it (`--reuid=postgres`…).
 */
export function withParentDeathSignal(
  command: string,
  args: readonly string[],
  setprivArgs: readonly string[] = [],
): [string, string[]] {
  if (!existsSync('/usr/bin/setpriv')) return [command, [...args]];
  return ['/usr/bin/setpriv', [...setprivArgs, '--pdeathsig', 'KILL', '--', command, ...args]];
}

/** Whether setpriv is there to run a command as another user with a parent-death signal. */
export const hasSetpriv = (): boolean => existsSync('/usr/bin/setpriv');

/** Sends each signal in turn, `graceMs` apart, until the child has exited. */
export async function terminate(
  child: ChildProcess,
  signals: readonly NodeJS.Signals[],
  graceMs: number,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const next = (i: number) => {
    child.kill(signals[i]);
    if (i + 1 < signals.length) timer = setTimeout(() => next(i + 1), graceMs);
  };
  next(0);
  await exited;
  clearTimeout(timer);
}

/**
 * Follow a daemon a test started: the function returned says why it stopped (`undefined` while
 * it runs); `onGone` runs when it exits. Unreferenced, so a forgotten stop does not keep the
 * test process alive (the exit guard still stops the daemon).
 */
export function watchDaemon(child: ChildProcess, onGone: () => void): () => string | undefined {
  let exit: string | undefined;
  child.once('error', (error) => (exit = error.message));
  child.once('exit', (code, signal) => {
    exit ??= `exit code ${code ?? signal}`;
    onGone();
  });
  child.unref();
  return () => exit;
}
