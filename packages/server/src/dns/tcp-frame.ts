/**
 * DNS messages over TCP (RFC 1035 §4.2.2, RFC 7766 §8): each one preceded by its length in two
 * bytes. One reading of that stream for every TCP speaker here: the responder, the verification
 * client, and the tests' client and scripted servers.
 */

/** `message` with its two-byte length in front, ready to write. */
export function framed(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(2 + message.length);
  out.writeUInt16BE(message.length, 0);
  out.set(message, 2);
  return out;
}

/** Gathers a TCP stream's chunks and gives back each message as soon as all of it has come. */
export class FrameReader {
  #buffered: Buffer = Buffer.alloc(0);

  /** Takes `chunk`; returns the messages it completed, in order (views of the stream's bytes). */
  push(chunk: Buffer): Buffer[] {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    const messages: Buffer[] = [];
    while (this.#buffered.length >= 2) {
      const length = this.#buffered.readUInt16BE(0);
      if (this.#buffered.length < 2 + length) break;
      messages.push(this.#buffered.subarray(2, 2 + length));
      this.#buffered = this.#buffered.subarray(2 + length);
    }
    return messages;
  }

  /** Bytes received of a message not complete yet (0 between messages). */
  get pending(): number {
    return this.#buffered.length;
  }
}
