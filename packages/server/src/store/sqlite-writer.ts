/**
 * The main thread's handle on the SQLite writer thread (`sqlite-writer-thread.js`), which owns
 * the process's one write connection. better-sqlite3 is synchronous: on the event loop, a batch
 * of 100 messages' inserts and its commit's fsync held every other request for 10–48 ms at a
 * time while a batch flood ran (issue 37: another account's status p99 6.4× quiet). Here the
 * event loop only posts the statements and is woken with the answer.
 *
 * A thread that ends without being asked (an uncaught error, its memory limit) fails every
 * write in flight and every one after with 503 `SERVICE_UNAVAILABLE`, and `onExit` says why
 * once (the server logs it): the process cannot write, so it says so rather than hang.
 */
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { ApiError } from '../errors.js';

/** One statement for the writer: SQL text and its parameters. */
export interface WriterStatement {
  sql: string;
  params: readonly unknown[];
}

/** What the last statement of a message gave: its rows, or what it changed. */
export interface WriterResult {
  rows?: Record<string, unknown>[];
  changes?: number;
  lastInsertRowid?: number | bigint;
}

interface Pending {
  resolve: (result: WriterResult) => void;
  reject: (error: Error) => void;
}

const THREAD = new URL('./sqlite-writer-thread.js', import.meta.url);

export class SqliteWriter {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closing = false;
  private closed: Promise<void> | undefined;
  /** Set once the thread has ended: every execute fails with it. */
  private failure: Error | undefined;

  private constructor(
    /** The thread itself (tests end it to see how a death is handled). */
    readonly thread: Worker,
    private readonly onExit: ((error: Error) => void) | undefined,
  ) {
    thread.on(
      'message',
      (message: { id: number } & WriterResult & { error?: { message: string; code?: string } }) => {
        const waiting = this.pending.get(message.id);
        if (waiting === undefined) return;
        this.settled(message.id);
        if (message.error) waiting.reject(writerError(message.error));
        else waiting.resolve(message);
      },
    );
    let cause: Error | undefined;
    thread.on('error', (error) => {
      cause = error;
    });
    thread.on('exit', (code) => {
      if (this.closing && cause === undefined) return this.failAll(new Error('the SQLite writer is closed'));
      const why = cause ? `: ${cause.message}` : ` with code ${code}`;
      const error = new ApiError(
        'SERVICE_UNAVAILABLE',
        `the database's writer thread stopped${why}; writes fail until the service restarts`,
      );
      if (cause) error.cause = cause;
      this.failAll(error);
      this.onExit?.(error);
    });
  }

  /**
   * Starts the thread on `file` (created, 0600, by the caller) and resolves once its
   * connection is open; rejects with the reason it could not open.
   */
  static start(file: string, options: { onExit?: (error: Error) => void } = {}): Promise<SqliteWriter> {
    const thread = new Worker(THREAD, { workerData: { file }, name: 'sqlite-writer' });
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      const exited = (code: number) => reject(new Error(`the SQLite writer thread exited with code ${code}`));
      thread.once('error', failed);
      thread.once('exit', exited);
      thread.once('message', () => {
        thread.off('error', failed);
        thread.off('exit', exited);
        // idle, it keeps nothing alive: a process that forgets to close its store still ends
        thread.unref();
        resolve(new SqliteWriter(thread, options.onExit));
      });
    });
  }

  /** Runs `statements` in order on the write connection; resolves with the last one's result. */
  execute(statements: WriterStatement[]): Promise<WriterResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // a process waiting for an answer stays alive for it
      if (this.pending.size === 0) this.thread.ref();
      this.pending.set(id, { resolve, reject });
      this.thread.postMessage({ id, statements });
    });
  }

  /** Closes the connection (after the statements already sent) and ends the thread; once. */
  close(): Promise<void> {
    if (this.closed === undefined) {
      if (this.failure) return Promise.resolve();
      this.closing = true;
      this.closed = new Promise((resolve) => this.thread.once('exit', () => resolve()));
      this.thread.ref();
      this.thread.postMessage({ id: this.nextId++, close: true });
    }
    return this.closed;
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0 && !this.closing) this.thread.unref();
  }

  private failAll(error: Error): void {
    this.failure = error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}

/** The thread's error as the main thread's better-sqlite3 would have thrown it (same code). */
function writerError(error: { message: string; code?: string }): Error {
  return error.code === undefined
    ? new Error(error.message)
    : new SQLite.SqliteError(error.message, error.code);
}
