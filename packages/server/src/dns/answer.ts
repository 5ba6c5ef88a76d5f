/**
 * The responder's brain: one DNS message in, the wire messages to send back out. Pure: the
 * sockets (responder.ts) only move bytes. Built on `dns-packet` for the wire format.
 *
 * Behaviour, with the rule behind each part:
 * - Undecodable messages and responses (QR=1) get no reply at all: a reply to garbage or to a
 *   forged response is how reflection attacks and loops start.
 * - Opcodes other than QUERY: NOTIMP (RFC 1035 §4.1.1). Not one question: FORMERR.
 * - Authoritative answers carry AA (RFC 1035 §4.1.1); RD is copied, RA is never set.
 * - NXDOMAIN and NODATA carry the SOA in the authority section (RFC 2308 §3), TTL = MINIMUM.
 * - Names outside the zone: REFUSED, as an authoritative-only server does.
 * - ANY gets RFC 8482's small answer (§4.2): one synthesized `HINFO "RFC8482" ""` at a name that
 *   exists, never the records themselves (ANY is the amplifier's favourite); NXDOMAIN elsewhere.
 * - EDNS0 (RFC 6891): one OPT or FORMERR (§6.1.1); version > 0 gets BADVERS (§6.1.3); the
 *   client's UDP payload size is honoured, never below 512 (§6.2.5) nor above our own 1232. The
 *   DO bit is copied into the answer's OPT (RFC 3225 §3); the zone is unsigned, so no RRSIG.
 * - UDP answers that do not fit drop all records and set TC (RFC 1035 §4.2.1, RFC 2181 §9),
 *   so the client retries over TCP, where the whole answer comes.
 * - AXFR/IXFR only over TCP and only to allow-listed secondaries (RFC 5936 §4.2, §6).
 */
import dnsPacket, {
  type Answer,
  type DecodedPacket,
  type OptAnswer,
  type Packet,
  type Question,
} from 'dns-packet';
import { transferMessages } from './axfr.js';
import type { DkimZone } from './zone.js';

/** The largest UDP answer we send, whatever a client offers (the DNS Flag Day 2020 value). */
export const MAX_UDP_PAYLOAD = 1232;
/** Without EDNS0 a UDP message is at most 512 bytes (RFC 1035 §2.3.4). */
export const CLASSIC_UDP_PAYLOAD = 512;

/** How the message arrived and who sent it. */
export interface QueryContext {
  transport: 'udp' | 'tcp';
  /** The client may transfer the zone (its address is an allow-listed secondary). */
  transferAllowed: boolean;
}

const RCODE = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
/** BADVERS is extended RCODE 16: upper 8 bits (1) in the OPT record, lower 4 bits (0) in the header. */
const BADVERS_UPPER = 1;
const OPCODE_QUERY = 0;
/** The DO bit of the OPT record's flags (RFC 3225 §3). */
const DNSSEC_OK = 0x8000;

interface Reply {
  rcode: number;
  answers?: Answer[];
  authorities?: Answer[];
  authoritative: boolean;
}

/** Answer one message; an empty list means "send nothing". Never throws. */
export function answerMessage(message: Buffer, zone: DkimZone, context: QueryContext): Buffer[] {
  if (message.length < 12) return [];
  let query: DecodedPacket;
  try {
    query = dnsPacket.decode(message);
  } catch {
    return [];
  }
  if (query.flag_qr) return [];
  try {
    return respond(query, zone, context);
  } catch {
    // A name dns-packet decoded but cannot encode back (e.g. a label with a dot in it).
    return [];
  }
}

function respond(query: DecodedPacket, zone: DkimZone, context: QueryContext): Buffer[] {
  const questions = query.questions ?? [];
  const question = questions.length === 1 ? questions[0] : undefined;
  const opcode = ((query.flags ?? 0) >> 11) & 0xf;
  const opts = (query.additionals ?? []).filter((a): a is OptAnswer => a.type === 'OPT');
  const opt = opts[0];
  const limit =
    context.transport === 'tcp'
      ? 65_535
      : opt
        ? Math.min(Math.max(opt.udpPayloadSize ?? CLASSIC_UDP_PAYLOAD, CLASSIC_UDP_PAYLOAD), MAX_UDP_PAYLOAD)
        : CLASSIC_UDP_PAYLOAD;
  const edns = opt && { dnssecOk: ((opt.flags ?? 0) & DNSSEC_OK) !== 0 };
  const send = (reply: Reply, extendedRcode = 0) =>
    encodeReply(query, question, reply, edns, extendedRcode, limit, context.transport);

  if (opcode !== OPCODE_QUERY) return send({ rcode: RCODE.NOTIMP, authoritative: false });
  if (question === undefined || opts.length > 1) return send({ rcode: RCODE.FORMERR, authoritative: false });
  if (opt !== undefined && (opt.ednsVersion ?? 0) > 0) {
    return send({ rcode: RCODE.NOERROR, authoritative: false }, BADVERS_UPPER);
  }
  if ((question.class ?? 'IN') !== 'IN') return send({ rcode: RCODE.REFUSED, authoritative: false });

  const match = zone.match(question.name);
  if (match.at === 'outside') return send({ rcode: RCODE.REFUSED, authoritative: false });

  const type: string = question.type;
  if (type === 'AXFR' || type === 'IXFR') {
    // RFC 1995 §4 lets an IXFR be answered with the whole zone, as we do.
    if (context.transport !== 'tcp' || !context.transferAllowed || match.at !== 'apex') {
      return send({ rcode: RCODE.REFUSED, authoritative: false });
    }
    return transferMessages(zone, query.id ?? 0, question);
  }
  if (type === 'ANY') {
    if (match.at === 'none')
      return send({ rcode: RCODE.NXDOMAIN, authoritative: true, authorities: [zone.soa()] });
    const hinfo = {
      name: question.name,
      type: 'HINFO',
      ttl: zone.soa().ttl,
      data: { cpu: 'RFC8482', os: '' },
    };
    return send({ rcode: RCODE.NOERROR, authoritative: true, answers: [hinfo as Answer] });
  }

  // RFC 2308 §3: the SOA of a negative answer has TTL min(SOA TTL, SOA MINIMUM), equal here.
  const negative = (rcode: number): Reply => ({ rcode, authoritative: true, authorities: [zone.soa()] });
  switch (match.at) {
    case 'apex':
      if (type === 'SOA')
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: [zone.soa(question.name)] });
      if (type === 'NS')
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: zone.ns(question.name) });
      return send(negative(RCODE.NOERROR));
    case 'key':
      if (type === 'TXT') {
        return send({
          rcode: RCODE.NOERROR,
          authoritative: true,
          answers: [zone.txt(question.name, match.strings)],
        });
      }
      return send(negative(RCODE.NOERROR));
    case 'txt':
      if (type === 'TXT' && match.records.length > 0) {
        return send({
          rcode: RCODE.NOERROR,
          authoritative: true,
          answers: match.records.map((strings) => zone.txt(question.name, strings)),
        });
      }
      if (type === 'MX' && match.mx.length > 0)
        return send({ rcode: RCODE.NOERROR, authoritative: true, answers: zone.mx(question.name, match.mx) });
      return send(negative(RCODE.NOERROR));
    case 'none':
      return send(negative(RCODE.NXDOMAIN));
  }
}

function encodeReply(
  query: DecodedPacket,
  question: Question | undefined,
  reply: Reply,
  edns: { dnssecOk: boolean } | undefined,
  extendedRcode: number,
  limit: number,
  transport: 'udp' | 'tcp',
): Buffer[] {
  const queryFlags = query.flags ?? 0;
  const flags =
    (queryFlags & (0xf << 11)) | // opcode, echoed
    (reply.authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
    (queryFlags & dnsPacket.RECURSION_DESIRED) |
    (queryFlags & dnsPacket.CHECKING_DISABLED) |
    reply.rcode;
  const additionals: Answer[] = edns
    ? [
        {
          name: '.',
          type: 'OPT',
          udpPayloadSize: MAX_UDP_PAYLOAD,
          extendedRcode,
          ednsVersion: 0,
          flags: edns.dnssecOk ? DNSSEC_OK : 0,
        } as OptAnswer,
      ]
    : [];
  const packet: Packet = {
    id: query.id,
    type: 'response',
    flags,
    questions: question ? [question] : [],
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
    additionals,
  };
  let wire = dnsPacket.encode(packet);
  // dns-packet does not compress names; our answers are one record, so that costs little.
  if (transport === 'udp' && wire.length > limit) {
    wire = dnsPacket.encode({
      ...packet,
      flags: flags | dnsPacket.TRUNCATED_RESPONSE,
      answers: [],
      authorities: [],
    });
  }
  return [wire];
}
