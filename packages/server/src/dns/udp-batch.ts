/**
 * The responder's UDP socket read and written in batches through `native/udp-batch.c` (built by
 * `npm run build` when a C compiler and Node's headers are there): one `recvmmsg` takes up to 64
 * queries, they are answered in one call into JavaScript, one `sendmmsg` sends the answers.
 * Node's `dgram` pays a system call, a callback and an address object per datagram; at 100,000
 * queries a second that was most of the responder's time (docs/decisions.md, "The responder's
 * UDP in batches"). The C side never reads a datagram: every answer is decided here.
 *
 * Without the built module (or with `DNS_UDP_BATCH=false`) the responder uses `dgram`, answering
 * the same bytes.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { getSystemErrorName } from 'node:util';

/** The sender of a datagram, as `dgram` gives it. */
export interface UdpSender {
  address: string;
  port: number;
}

/**
 * Answers one query now, or returns undefined (no answer, or one sent later with `sendTo`). The
 * answer may be written at `into[at]` (the batch socket's slot for it, room for any UDP answer)
 * instead of a buffer of its own: a flood then leaves no buffers behind for the collector.
 */
export type UdpAnswerer = (
  message: Buffer,
  sender: UdpSender,
  into?: Buffer,
  at?: number,
) => Buffer | undefined;

export interface BatchSocket {
  /** The bound port (the real one when 0 was asked). */
  readonly port: number;
  /** Sends an answer outside a batch: one that waited for a load. */
  sendTo(reply: Buffer, sender: UdpSender): void;
  close(): void;
}

interface NativeSocket {
  port: number;
  queries: ArrayBuffer;
  senders: ArrayBuffer;
  answers: ArrayBuffer;
  lengths: ArrayBuffer;
}

interface NativeModule {
  BATCH: number;
  QUERY_SLOT: number;
  ANSWER_SLOT: number;
  SENDER_INTS: number;
  SENDER_TEXT: number;
  open(host: string, port: number, onBatch: (count: number) => void): NativeSocket;
  sendTo(socket: NativeSocket, reply: Uint8Array, host: string, port: number): void;
  close(socket: NativeSocket): void;
}

const MODULE = fileURLToPath(new URL('../../dist/native/udp-batch.node', import.meta.url));
let loaded: NativeModule | null | undefined;

/** The built module, or undefined when it was not built (then the responder uses `dgram`). */
export function nativeUdpBatch(): NativeModule | undefined {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)(MODULE) as NativeModule;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}

/**
 * `native.open`, its system errors worded and coded as Node's own (`bind EADDRINUSE
 * 127.0.0.1:53`, `code` 'EADDRINUSE'), as `dgram` would throw them.
 */
function openNative(
  native: NativeModule,
  host: string,
  port: number,
  onBatch: (count: number) => void,
): NativeSocket {
  try {
    return native.open(host, port, onBatch);
  } catch (error) {
    const { errno, syscall } = error as { errno?: unknown; syscall?: unknown };
    if (typeof errno !== 'number' || typeof syscall !== 'string') throw error;
    const code = getSystemErrorName(-errno);
    throw Object.assign(new Error(`${syscall} ${code} ${host}:${port}`), {
      code,
      errno: -errno,
      syscall,
      address: host,
      port,
    });
  }
}

/** Binds `host:port` (an IP address) and answers each datagram with `answer`. */
export function openBatchSocket(
  native: NativeModule,
  host: string,
  port: number,
  answer: UdpAnswerer,
): BatchSocket {
  const { QUERY_SLOT, ANSWER_SLOT, SENDER_INTS, SENDER_TEXT } = native;
  let queries: Buffer;
  let senderBytes: Buffer;
  let senderInts: Int32Array;
  let answers: Buffer;
  let lengths: Int32Array;
  // One client sends many queries in a row (a resolver): its address text is made once.
  let last: UdpSender = { address: '', port: -1 };
  const lastAddress = new Int32Array(6); // family, the address's 16 bytes, its IPv6 scope
  const socket = openNative(native, host, port, (count) => {
    for (let i = 0; i < count; i++) {
      const at = i * SENDER_INTS;
      const message = queries.subarray(i * QUERY_SLOT, i * QUERY_SLOT + senderInts[at]!);
      let sameAddress = senderInts[at + 1] === lastAddress[0];
      for (let w = 0; w < 5 && sameAddress; w++) sameAddress = senderInts[at + 4 + w] === lastAddress[w + 1];
      if (!sameAddress || senderInts[at + 2] !== last.port) {
        const textAt = at * 4 + SENDER_TEXT;
        const address = sameAddress
          ? last.address
          : senderBytes.toString('latin1', textAt, textAt + senderInts[at + 3]!);
        last = { address, port: senderInts[at + 2]! };
        lastAddress[0] = senderInts[at + 1]!;
        for (let w = 0; w < 5; w++) lastAddress[w + 1] = senderInts[at + 4 + w]!;
      }
      const slot = i * ANSWER_SLOT;
      const reply = answer(message, last, answers, slot);
      if (reply === undefined) continue;
      if (reply.buffer === answers.buffer && reply.byteOffset === slot) lengths[i] = reply.length;
      else if (reply.length <= ANSWER_SLOT) {
        reply.copy(answers, slot);
        lengths[i] = reply.length;
      } else native.sendTo(socket, reply, last.address, last.port);
    }
  });
  queries = Buffer.from(socket.queries);
  senderBytes = Buffer.from(socket.senders);
  senderInts = new Int32Array(socket.senders);
  answers = Buffer.from(socket.answers);
  lengths = new Int32Array(socket.lengths);
  let closed = false;
  return {
    port: socket.port,
    // an answer whose load ended after the close is dropped, as dgram drops it
    sendTo: (reply, sender) => closed || native.sendTo(socket, reply, sender.address, sender.port),
    close: () => {
      if (closed) return;
      closed = true;
      native.close(socket);
    },
  };
}
