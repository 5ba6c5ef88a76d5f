/**
 * Zone transfer responses (RFC 5936): the SOA, every other record, and the SOA again, in as
 * many messages as needed. A zone whose keys live in the database (issue 39) is streamed page
 * by page ({@link transferStream}), never held whole.
 */
import dnsPacket, { type Answer, type Question } from 'dns-packet';
import type { DkimZone } from './zone.js';

/**
 * Bytes of records per message. Each TCP message may hold up to 65535 bytes (RFC 5936 §2.2);
 * smaller messages let the secondary start parsing sooner and keep our write buffers small.
 */
export const TRANSFER_MESSAGE_BYTES = 16_384;
const HEADER_BYTES = 12;

/**
 * The AXFR response messages to `question` (RFC 5936 §2.2): every message carries AA and the
 * query id; the first echoes the question (§2.2.1 allows it in the first only); the first and
 * last records are the zone's SOA (§2.2).
 */
export function transferMessages(zone: DkimZone, id: number, question: Question): Buffer[] {
  const messages = new TransferMessages(id, question);
  for (const record of [zone.soa(), ...zone.transferRecords(), zone.soa()]) messages.add(record);
  messages.end();
  return messages.take();
}

/**
 * The same messages for a zone whose keys are read from the database page by page
 * (`DkimZone.loadsKeys`): each message is yielded once full, so a transfer of millions of keys
 * holds one page and one message at a time. The SOA at both ends is the zone version's, taken
 * at the start (RFC 5936 §2.2); a change committed during the transfer raises the serial and
 * NOTIFYs the secondaries, which then transfer again. A page that cannot be read throws.
 */
export async function* transferStream(
  zone: DkimZone,
  id: number,
  question: Question,
): AsyncGenerator<Buffer> {
  const soa = zone.soa();
  const messages = new TransferMessages(id, question);
  for (const record of [soa, ...zone.transferRecords()]) messages.add(record);
  yield* messages.take();
  for await (const page of zone.transferKeyPages()) {
    for (const record of page) messages.add(record);
    yield* messages.take();
  }
  messages.add(soa);
  messages.end();
  yield* messages.take();
}

/** Packs records into messages of at most {@link TRANSFER_MESSAGE_BYTES} of records each. */
class TransferMessages {
  private batch: Answer[] = [];
  private bytes = 0;
  private sent = 0;
  private done: Buffer[] = [];

  constructor(
    private readonly id: number,
    private readonly question: Question,
  ) {}

  add(record: Answer): void {
    const size = dnsPacket.encodingLength({ answers: [record] }) - HEADER_BYTES;
    if (this.batch.length > 0 && this.bytes + size > TRANSFER_MESSAGE_BYTES) this.flush();
    this.batch.push(record);
    this.bytes += size;
  }

  /** The last message, with what is left. */
  end(): void {
    this.flush();
  }

  /** The messages completed so far. */
  take(): Buffer[] {
    const done = this.done;
    this.done = [];
    return done;
  }

  private flush(): void {
    this.done.push(
      dnsPacket.encode({
        id: this.id,
        type: 'response',
        flags: dnsPacket.AUTHORITATIVE_ANSWER,
        questions: this.sent === 0 ? [this.question] : [],
        answers: this.batch,
      }),
    );
    this.sent++;
    this.batch = [];
    this.bytes = 0;
  }
}
