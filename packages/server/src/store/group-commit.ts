/**
 * Group commit: writes that arrive while one transaction is being written wait, and go
 * together in the next one, so a thousand check results cost a few commits instead of a
 * thousand. A commit is the expensive part of a small write: SQLite with `synchronous=FULL`
 * and PostgreSQL with `synchronous_commit=on` each wait for an fsync (about 2 ms on this
 * machine's disk), so one check's three statements took 0.1 ms and its commit 1.9 ms.
 *
 * A lone write is not held back: it starts at the next turn of the event loop (so the writes
 * finishing in the same turn join it). When a grouped transaction fails, its writes are
 * written again one by one, each in its own transaction, so one bad write fails alone and
 * never takes its neighbours with it.
 */
export class GroupCommit<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly options: {
      /** Write these items in one transaction. */
      writeAll: (items: T[]) => Promise<void>;
      /** Write one item in a transaction of its own (after a grouped one failed). */
      writeOne: (item: T) => Promise<void>;
      /** The most items in one transaction (a bound on how long it holds the write lock). */
      maxItems: number;
    },
  ) {}

  /** Resolves once `item` is committed; rejects with its own write's error. */
  write(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      // the writes that finish in this turn go in the same transaction
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.options.maxItems);
        try {
          if (group.length === 1) await this.options.writeOne(group[0]!.item);
          else await this.options.writeAll(group.map((entry) => entry.item));
          for (const entry of group) entry.resolve();
        } catch (error) {
          if (group.length === 1) {
            group[0]!.reject(error);
            continue;
          }
          for (const entry of group)
            await this.options.writeOne(entry.item).then(entry.resolve, entry.reject);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
