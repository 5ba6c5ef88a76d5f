/**
 * The JSON of every answer. Answers are built by our own code in the documented shapes (tests
 * check each against /openapi.json), so they need no schema-driven serialiser; and a frozen
 * value cannot change, so its JSON is made once and kept: a domain's view is frozen and shared
 * by every poll until its state changes (`domainView`), so polling the same domains serialises
 * each state once instead of on every request.
 */

/** For each frozen `data`: the bytes of `[{"data":…,"error":null,"status":200}]`, a one-item answer. */
const kept = new WeakMap<object, Buffer>();

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * The bytes of `JSON.stringify(answer)`, reusing the kept bytes of the frozen `data` of
 * per-item envelopes. Bytes rather than a string: Fastify then takes the length as it is, and
 * the socket writes them without encoding 2 KB again on every poll; a one-item answer (the
 * usual poll) is the kept bytes themselves, sent without a copy (nothing writes to them).
 */
export function responseJson(answer: unknown): Buffer {
  if (!Array.isArray(answer)) return Buffer.from(JSON.stringify(answer));
  if (answer.length === 1) return reusableAnswer(answer[0]) ?? Buffer.from(JSON.stringify(answer));
  const parts: Buffer[] = [OPEN];
  for (let i = 0; i < answer.length; i++) {
    if (i > 0) parts.push(COMMA);
    // the kept one-item answer without its brackets
    parts.push(reusableAnswer(answer[i])?.subarray(1, -1) ?? Buffer.from(JSON.stringify(answer[i])));
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** The kept one-item answer for an envelope whose `data` is frozen, or undefined. */
function reusableAnswer(item: unknown): Buffer | undefined {
  const envelope = item as { data?: unknown; error?: unknown; status?: unknown } | null;
  const data = envelope?.data;
  const reusable =
    envelope?.error === null &&
    envelope.status === 200 &&
    typeof data === 'object' &&
    data !== null &&
    Object.isFrozen(data);
  if (!reusable) return undefined;
  let json = kept.get(data);
  if (json === undefined) {
    json = Buffer.from(`[{"data":${JSON.stringify(data)},"error":null,"status":200}]`);
    kept.set(data, json);
  }
  return json;
}
