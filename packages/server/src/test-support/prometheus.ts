/**
 * A private Prometheus for the metrics tests (issue 39): Debian's `prometheus` on a free port of
 * 127.0.0.1, in the foreground as our child, with a temporary config (one scrape job, every
 * second) and data directory, so its pid is ours to stop; an exit guard kills it if the test
 * process dies first. Queries go through its HTTP API (`/api/v1/query`), as Grafana's do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

export interface PrometheusServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly pid: number | undefined;
  /** The result of an instant PromQL query: each series' labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** Stops it and deletes its directory. */
  stop(): Promise<void>;
}

export interface ScrapeTarget {
  /** `127.0.0.1:PORT` of the metrics listener. */
  target: string;
  /** The bearer token the scrape sends (`METRICS_TOKEN`). */
  token?: string;
}

const START_TIMEOUT_MS = 20_000;

/**
 * Start a private Prometheus scraping `target` every second; resolves once it is ready.
 *
 * @example
 * const prometheus = await startPrometheus({ target: '127.0.0.1:9464', token });
 * await prometheus.query('sum(http_requests_total)');
 * await prometheus.stop(); // in after()
 */
export async function startPrometheus(scrape: ScrapeTarget): Promise<PrometheusServer> {
  return launchOnFreePort(new PrivatePrometheus(scrape));
}

class PrivatePrometheus implements PrometheusServer {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'service-prometheus-'));
  private port = 0;
  private child: ChildProcess | undefined;
  private readonly unguard = guardOnExit(() => {
    this.child?.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  });

  constructor(scrape: ScrapeTarget) {
    const auth = scrape.token
      ? `    authorization:\n      type: Bearer\n      credentials: ${JSON.stringify(scrape.token)}\n`
      : '';
    writeFileSync(
      path.join(this.dir, 'prometheus.yml'),
      'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n' +
        `scrape_configs:\n  - job_name: service\n    static_configs:\n      - targets: [${JSON.stringify(scrape.target)}]\n${auth}`,
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async launch(port: number): Promise<void> {
    this.port = port;
    const args = [
      `--config.file=${path.join(this.dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(this.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ];
    const child = spawn(...withParentDeathSignal('prometheus', args), { stdio: ['ignore', 'pipe', 'pipe'] });
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
        throw new Error(`prometheus failed to start (${exit()}):\n${output}`);
      }
      const ready = await fetch(`${this.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline)
        throw new Error(`prometheus was not ready within ${START_TIMEOUT_MS} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
    const response = await fetch(`${this.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success') throw new Error(`PromQL ${promql}: ${body.error}`);
    return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  }

  async stop(): Promise<void> {
    if (this.child) await terminate(this.child, ['SIGTERM', 'SIGKILL'], 5000);
    rmSync(this.dir, { recursive: true, force: true });
    this.unguard();
  }
}
