/**
 * Issue 9: 100,000 generated requests (hostile values, broken bodies, wrong methods, paths,
 * content types and credentials) against the real server, 20 at a time; zero 5xx and zero
 * answers outside the OpenAPI document expected. Prints what it held.
 */
import fc from 'fast-check';
import { answerProblems, apiRequest, send } from '../src/test-support/api-fuzz.js';
import { startTestServer } from '../src/test-support/test-server.js';
import { fmt } from './support.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const CONCURRENCY = 20;

export async function runFuzzBench(): Promise<void> {
  console.log(
    `\n## Fuzzing: ${fmt(REQUESTS)} generated requests against the real server (SQLite), ${CONCURRENCY} at a time`,
  );
  const t = await startTestServer({ RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'silent' });
  const checker = await t.openapi();
  try {
    const { key } = await t.createKey({ name: 'fuzz' });
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    const started = Date.now();
    let next = 0;
    // Generated in chunks so memory stays flat; the seed makes the whole run reproducible.
    const chunk = 1000;
    for (let offset = 0; offset < REQUESTS; offset += chunk) {
      const requests = fc.sample(apiRequest, {
        seed: 20261122 + offset,
        numRuns: Math.min(chunk, REQUESTS - offset),
      });
      next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < requests.length) {
            const r = requests[next++]!;
            const answer = await send(t.url, key, r);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            problems.push(...answerProblems(checker, r, answer));
          }
        }),
      );
    }
    const seconds = (Date.now() - started) / 1000;
    const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((a, [, n]) => a + n, 0);
    const breakdown = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${fmt(n)}`)
      .join(', ');
    console.log(`${fmt(REQUESTS)} requests in ${fmt(seconds, 1)} s; statuses ${breakdown}`);
    console.log(
      `5xx: ${fivexx}; answers outside the OpenAPI document: ${problems.length} ${fivexx === 0 && problems.length === 0 ? 'OK' : 'FAILED'}`,
    );
    for (const p of problems.slice(0, 5)) console.log(`  ${p}`);
  } finally {
    await t.close();
  }
}
