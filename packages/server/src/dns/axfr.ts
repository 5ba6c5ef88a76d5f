/**
 * Zone transfer responses (RFC 5936): the SOA, every other record, and the SOA again, in as
 * many messages as needed. Pure.
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
  const records: Answer[] = [zone.soa(), ...zone.transferRecords(), zone.soa()];
  const messages: Buffer[] = [];
  let batch: Answer[] = [];
  let bytes = 0;
  const flush = () => {
    messages.push(
      dnsPacket.encode({
        id,
        type: 'response',
        flags: dnsPacket.AUTHORITATIVE_ANSWER,
        questions: messages.length === 0 ? [question] : [],
        answers: batch,
      }),
    );
    batch = [];
    bytes = 0;
  };
  for (const record of records) {
    const size = dnsPacket.encodingLength({ answers: [record] }) - HEADER_BYTES;
    if (batch.length > 0 && bytes + size > TRANSFER_MESSAGE_BYTES) flush();
    batch.push(record);
    bytes += size;
  }
  flush();
  return messages;
}
