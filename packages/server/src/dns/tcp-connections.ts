/**
 * Who may hold a DNS-over-TCP connection, and for how long (RFC 7766 §6.2: servers bound the
 * connections they hold and close idle ones; under pressure they may close the least useful).
 *
 * - At most `maxPerClient` connections per client (an IPv4 address, an IPv6 /64): one client
 *   cannot fill the table. A further connection from it is closed at once.
 * - At most `max` in all. When full, a new connection takes the place of the one that has gone
 *   longest without delivering a complete message, so connections that trickle bytes (never
 *   completing a message) are the first to go, and a real query still gets in.
 * - Two deadlines, neither renewed by a byte: a connection with no message under way is closed
 *   after `idleMs`; a message must arrive whole within `messageMs` of its first byte.
 */
import type net from 'node:net';
import { clientHost } from './client-address.js';

export interface TcpLimits {
  /** Connections held at once. Default 256. */
  max?: number;
  /** Connections per client address (IPv6: per /64). Default 16. */
  maxPerClient?: number;
  /** Close a connection with no message under way after this long. Default 10 s. */
  idleMs?: number;
  /** A message must arrive whole within this long of its first byte. Default 5 s. */
  messageMs?: number;
}

/** One held connection, with the deadline that currently applies to it. */
export class TcpConnection {
  /** When it last delivered a complete message (or connected): the eviction order. */
  lastProgress = performance.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly socket: net.Socket,
    readonly client: string,
    private readonly limits: Required<TcpLimits>,
  ) {
    this.waitForMessage();
  }

  /** No message under way: the idle deadline applies. */
  waitForMessage(): void {
    this.arm(this.limits.idleMs);
  }

  /** The first bytes of a message arrived: it must be whole within `messageMs`, however it trickles. */
  messageStarted(): void {
    this.arm(this.limits.messageMs);
  }

  /** A whole message arrived. */
  messageDone(): void {
    this.lastProgress = performance.now();
  }

  close(): void {
    clearTimeout(this.timer);
    this.socket.destroy();
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.close(), ms);
    this.timer.unref();
  }
}

export class TcpConnectionTable {
  private readonly connections = new Set<TcpConnection>();
  private readonly perClient = new Map<string, number>();
  private readonly limits: Required<TcpLimits>;

  constructor(limits: TcpLimits = {}) {
    this.limits = {
      max: limits.max ?? 256,
      maxPerClient: limits.maxPerClient ?? 16,
      idleMs: limits.idleMs ?? 10_000,
      messageMs: limits.messageMs ?? 5_000,
    };
  }

  /** Takes a new connection in, making room if needed; undefined when it was refused (and closed). */
  admit(socket: net.Socket, address: string): TcpConnection | undefined {
    const client = clientHost(address);
    if ((this.perClient.get(client) ?? 0) >= this.limits.maxPerClient) {
      socket.destroy();
      return undefined;
    }
    if (this.connections.size >= this.limits.max) this.leastUseful()?.close();
    const connection = new TcpConnection(socket, client, this.limits);
    this.connections.add(connection);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    socket.once('close', () => this.forget(connection));
    return connection;
  }

  /** Close every connection (the responder is stopping). */
  closeAll(): void {
    for (const connection of this.connections) connection.close();
  }

  get size(): number {
    return this.connections.size;
  }

  private forget(connection: TcpConnection): void {
    if (!this.connections.delete(connection)) return;
    const left = (this.perClient.get(connection.client) ?? 1) - 1;
    if (left > 0) this.perClient.set(connection.client, left);
    else this.perClient.delete(connection.client);
  }

  /** The connection that has gone longest without a complete message. */
  private leastUseful(): TcpConnection | undefined {
    let oldest: TcpConnection | undefined;
    for (const connection of this.connections)
      if (!oldest || connection.lastProgress < oldest.lastProgress) oldest = connection;
    return oldest;
  }
}
