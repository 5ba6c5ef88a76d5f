/**
 * Runs of bytes appended one after another in one Buffer outside the JavaScript heap, for the
 * DKIM zone's tables (`token-table.ts`, `zone-keys.ts`): at a million domains they hold 3M tokens
 * and 3M keys, which on the heap made every garbage collection slower.
 *
 * A run that is no longer wanted stays as garbage until an append finds no room. Then the arena
 * is compacted when at least half of it is garbage (so rewriting the live bytes is paid for by
 * as many bytes of changes), else it grows; either way it ends at least twice its live bytes.
 * The owner knows which runs are live and where it keeps their starts, so a compaction asks it
 * to move each one.
 */

/** Moves one live run to the compacted arena; returns its new start. */
export type MoveRun = (start: number, length: number) => number;

export class ByteArena {
  private buffer: Buffer;
  private used = 0;
  private garbage = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buffer = Buffer.allocUnsafeSlow(initialBytes);
  }

  /** The bytes; replaced by a compaction or growth, so read it afresh after {@link allocate}. */
  get bytes(): Buffer {
    return this.buffer;
  }

  /** Bytes held, garbage included. */
  get byteSize(): number {
    return this.buffer.length;
  }

  /**
   * Room for `length` more bytes; returns where to write them. When there is none, the arena
   * is compacted or grown first, and `eachLive` is called to move every live run: it calls
   * `move(start, length)` for each and keeps the new start.
   */
  allocate(length: number, eachLive: (move: MoveRun) => void): number {
    if (this.used + length > this.buffer.length) this.makeRoom(length, eachLive);
    const at = this.used;
    this.used += length;
    return at;
  }

  /** A run of `length` bytes is no longer wanted. */
  release(length: number): void {
    this.garbage += length;
  }

  private makeRoom(length: number, eachLive: (move: MoveRun) => void): void {
    const live = this.used - this.garbage;
    const size = this.garbage * 2 >= this.used ? this.buffer.length : this.buffer.length * 2;
    const next = Buffer.allocUnsafeSlow(Math.max(size, (live + length) * 2));
    let used = 0;
    eachLive((start, runLength) => {
      this.buffer.copy(next, used, start, start + runLength);
      const moved = used;
      used += runLength;
      return moved;
    });
    this.buffer = next;
    this.used = used;
    this.garbage = 0;
  }
}
