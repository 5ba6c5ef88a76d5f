/**
 * Run the project's entry points as child processes, as a user would: the CLI (built, or
 * through npm), the server as `npm start` runs it.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** The built server (`npm test` builds before it runs): starts faster than through tsx. */
const builtMain = path.join(repoRoot, 'packages/server/dist/main.js');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end, collecting what it writes; `cwd` defaults to the repository root.
 * `input` is written to its stdin. `onStart` gets the child at once, for a test that signals
 * it while it runs.
 */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  {
    cwd = repoRoot,
    input,
    onStart,
  }: { cwd?: string; input?: string; onStart?: (child: ChildProcess) => void } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // a command that does not read its stdin may exit first: EPIPE then is no failure
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    onStart?.(child);
  });
}

/** The built CLI (`npm test` builds before it runs). */
const builtCli = path.join(repoRoot, 'packages/server/dist/cli/main.js');

/**
 * Runs the CLI with `args`: the built `dist/cli/main.js`, which starts in about 0.7 s where the
 * README's `npm run --silent cli -- …` (npm, then tsx compiling the source) takes 2.2 s and
 * three times the CPU; `viaNpm` runs exactly the README's command, as one test does.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  { viaNpm = false, input }: { viaNpm?: boolean; input?: string } = {},
): Promise<ProcessResult> {
  const options = input === undefined ? {} : { input };
  return viaNpm
    ? runProcess('npm', ['run', '--silent', 'cli', '--', ...args], env, options)
    : runProcess(process.execPath, [builtCli, ...args], env, options);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the server wrote to stdout so far (its JSON logs). */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * As in `startTestServer`: nothing listens on the discard port, so a check that a test did not
 * point at its own BIND fails at once with dns_error. Left to the system's resolvers, each status
 * check on this offline machine waited for their timeouts: 4 s per 150 names (issue 41). Only
 * when the test names no resolvers: its own BIND keeps the service's default timeout (2 s), as a
 * loaded CI run can answer more than 500 ms late.
 */
const offlineDns = { DNS_RESOLVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '500' };

/**
 * Start `count` server processes at once. If one fails to start, the others are killed
 * before the failure is thrown: left running, they kept the test file from ever ending.
 */
export async function startServerProcesses(
  count: number,
  env: Record<string, string>,
): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServerProcess(env)));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed === undefined) return started.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
  const running = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  for (const server of running) server.child.kill('SIGKILL');
  await Promise.all(running.map((server) => server.exited));
  throw failed.reason;
}

/**
 * Start the built server (`dist/main.js`, as `npm start` runs it; `npm test` builds first) in a
 * child process and wait until it logs that it is ready. Through tsx, each start compiled the
 * sources again: 5–7 s of CPU per process on a loaded run (issue 41), where the build starts in
 * under one.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [builtMain], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(env.DNS_RESOLVERS === undefined && offlineDns),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within 60 s: ${err}${out}`)),
      60_000,
    );
    const onData = () => {
      const ready = out.split('\n').find((line) => line.includes('"service ready"'));
      if (ready) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(JSON.parse(ready).url);
      }
    };
    child.stdout!.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}${out}`));
    });
  });
  return { child, url, output: () => out, exited };
}

/**
 * Server processes sharing one data directory, as behind a load balancer: each started with
 * `base` (then its own `env`), every one SIGKILLed and the directory removed by `stop()`.
 */
export function serverFleet(prefix: string, base: () => Record<string, string> = () => ({})) {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const processes: ServerProcess[] = [];
  return {
    async start(env: Record<string, string> = {}): Promise<ServerProcess> {
      const p = await startServerProcess({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        DKIM_PROVIDER_HOST: 'provider.test',
        ...base(),
        ...env,
      });
      processes.push(p);
      return p;
    },
    async stop(): Promise<void> {
      for (const p of processes) p.child.kill('SIGKILL');
      await Promise.all(processes.map((p) => p.exited));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON request to a server process with an API key; asserts a 200 and returns the body. */
export async function callApi(url: string, key: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as any;
  assert.equal(res.status, 200, `${method} ${route}: ${JSON.stringify(json)}`);
  return json;
}
