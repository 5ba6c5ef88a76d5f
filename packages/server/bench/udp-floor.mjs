/**
 * The floor under any DNS responder that reads UDP through Node's `dgram`: the least such an
 * answerer does per query, measured by the zone bench beside our responder and BIND. It reads no
 * zone and decides nothing: every query is answered with one fixed TXT record (the bench's key
 * record, so the answer has our responder's size), its ID, flags and question copied, and an OPT
 * record when the query had one. It was the ceiling of our responder until the responder read
 * UDP in batches (`native/udp-batch.c`): one system call, callback and address object per
 * datagram cost more than the responder's whole answer.
 *
 * Usage: `node udp-floor.mjs <port> <txt-string>...`; prints `ready` once bound.
 */
import dgram from 'node:dgram';

const [port, ...strings] = process.argv.slice(2);
const HEADER = 12;
const rdata = Buffer.concat(strings.map((s) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s)])));
// the answer record: a pointer to the question's name, TXT, IN, TTL 300, then the strings
const record = Buffer.alloc(12 + rdata.length);
record.writeUInt16BE(0xc00c, 0);
record.writeUInt16BE(16, 2);
record.writeUInt16BE(1, 4);
record.writeUInt32BE(300, 6);
record.writeUInt16BE(rdata.length, 10);
rdata.copy(record, 12);
// OPT: root name, type 41, payload 1232, no extended RCODE, version 0, no flags, no options
const opt = Buffer.from([0, 0, 41, 0x04, 0xd0, 0, 0, 0, 0, 0, 0]);

const socket = dgram.createSocket({
  type: 'udp4',
  lookup: (address, _family, callback) => callback(null, address, 4),
});
socket.on('message', (query, remote) => {
  let end = HEADER;
  while (end < query.length && query[end] !== 0) end += query[end] + 1;
  end += 5; // the name's final zero byte, then type and class
  if (end > query.length) return;
  const edns = query.readUInt16BE(10) > 0;
  const reply = Buffer.allocUnsafe(end + record.length + (edns ? opt.length : 0));
  query.copy(reply, 0, 0, end);
  reply[2] = 0x84 | (query[2] & 0x01); // QR, AA, RD copied
  reply[3] = 0;
  reply.writeUInt16BE(1, 6);
  reply.writeUInt16BE(0, 8);
  reply.writeUInt16BE(edns ? 1 : 0, 10);
  record.copy(reply, end);
  if (edns) opt.copy(reply, end + record.length);
  socket.send(reply, remote.port, remote.address);
});
socket.bind(Number(port), '127.0.0.1', () => console.log('ready'));
