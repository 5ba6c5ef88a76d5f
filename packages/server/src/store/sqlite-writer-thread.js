/**
 * The SQLite writer thread (started by `sqlite-writer.ts`): it owns the process's one write
 * connection and runs, in arrival order, the statements the main thread sends, so a batch's
 * inserts and its commit's fsync (`synchronous=FULL`: 10–48 ms for a batch of 100 under load)
 * happen here while the event loop goes on answering requests.
 *
 * Messages in: `{id, statements: [{sql, params}]}` (run in order; the answer is the last one's)
 * and `{id, close: true}`. Answers: `{id, rows}` for a statement that returns rows, `{id,
 * changes, lastInsertRowid}` for one that does not, `{id, error: {message, code}}`.
 *
 * Plain JavaScript on purpose: worker threads start without the TypeScript loader the tests run
 * under, so this file must run as it is, from `src` as from `dist`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, statementCache } from './sqlite-connection.js';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const sqlite = openConnection(workerData.file);
const prepare = statementCache(sqlite);

/** A Uint8Array that crossed the thread boundary is a Buffer again (better-sqlite3 binds Buffers). */
const asBuffer = (/** @type {unknown} */ value) =>
  value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;

/** @param {{ sql: string, params: readonly unknown[] }} statement */
function run({ sql, params }) {
  const bound = params.map(asBuffer);
  const statement = prepare(sql);
  if (statement.reader) return { rows: statement.all(bound) };
  const { changes, lastInsertRowid } = statement.run(bound);
  return { changes, lastInsertRowid };
}

port.on('message', (/** @type {any} */ message) => {
  if (message.close) {
    sqlite.close();
    port.postMessage({ id: message.id, closed: true });
    port.close();
    return;
  }
  try {
    /** @type {object} */
    let result = {};
    for (const statement of message.statements) result = run(statement);
    port.postMessage({ id: message.id, ...result });
  } catch (error) {
    const { message: text, code } = /** @type {{ message?: string, code?: string }} */ (error);
    port.postMessage({ id: message.id, error: { message: text ?? String(error), code } });
  }
});

port.postMessage({ ready: true });
