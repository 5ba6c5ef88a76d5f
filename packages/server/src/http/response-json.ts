/**
 * The JSON of every answer. Answers are built by our own code in the documented shapes (tests
 * check each against /openapi.json), so they need no schema-driven serialiser; and a frozen
 * value cannot change, so its JSON is made once and kept: a domain's view is frozen and shared
 * by every poll until its state changes (`domainView`), so polling the same domains serialises
 * each state once instead of on every request.
 */

const kept = new WeakMap<object, string>();

/** `JSON.stringify(answer)`, reusing the JSON of the frozen `data` of per-item envelopes. */
export function responseJson(answer: unknown): string {
  if (!Array.isArray(answer)) return JSON.stringify(answer);
  let json = '[';
  for (let i = 0; i < answer.length; i++) json += (i > 0 ? ',' : '') + envelopeJson(answer[i]);
  return `${json}]`;
}

function envelopeJson(item: unknown): string {
  const envelope = item as { data?: unknown; error?: unknown; status?: unknown } | null;
  const data = envelope?.data;
  const reusable =
    envelope?.error === null &&
    typeof envelope.status === 'number' &&
    typeof data === 'object' &&
    data !== null &&
    Object.isFrozen(data);
  if (!reusable) return JSON.stringify(item);
  let json = kept.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    kept.set(data, json);
  }
  return `{"data":${json},"error":null,"status":${envelope.status}}`;
}
