/**
 * What `/readyz` asks (issue 39): each dependency this process needs to serve, by name, so an
 * orchestrator or an operator reading the answer sees which one is missing instead of a bare
 * 503. A `required` dependency down makes the process not ready (503); one that is not (Redis:
 * without it each process counts rate limits on its own) makes it `degraded`, still serving.
 */

/** One dependency: `check` resolves when it answers, and throws saying why when it does not. */
export interface DependencyCheck {
  name: string;
  required: boolean;
  check(): Promise<void> | void;
}

export interface DependencyState {
  status: 'ok' | 'down';
  required: boolean;
  /** Why it is down. */
  detail?: string;
}

export interface ReadinessReport {
  /** `ok`: every dependency answers; `degraded`: one not required does not; `unavailable`: one required does not. */
  status: 'ok' | 'degraded' | 'unavailable';
  dependencies: Record<string, DependencyState>;
}

/** A check that has not answered in this time is down: a probe must answer within its own timeout. */
const CHECK_TIMEOUT_MS = 2_000;

export class Readiness {
  private readonly checks: DependencyCheck[] = [];

  /** Adds a dependency; the server adds each as it starts (the database first, then Redis, DNS). */
  add(check: DependencyCheck): void {
    this.checks.push(check);
  }

  /** Asks every dependency at once. */
  async report(): Promise<ReadinessReport> {
    const states = await Promise.all(
      this.checks.map(async (c): Promise<[string, DependencyState]> => {
        try {
          await withTimeout(
            Promise.resolve().then(() => c.check()),
            CHECK_TIMEOUT_MS,
          );
          return [c.name, { status: 'ok', required: c.required }];
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          return [c.name, { status: 'down', required: c.required, detail }];
        }
      }),
    );
    const down = states.filter(([, s]) => s.status === 'down');
    return {
      status: down.some(([, s]) => s.required) ? 'unavailable' : down.length > 0 ? 'degraded' : 'ok',
      dependencies: Object.fromEntries(states),
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
