/**
 * A process of its own for `send-flood.bench.ts`: UDP queries for `NAME` to the DKIM responder
 * on `DNS_PORT`, 200 a second, each timed from its scheduled send (a lost one counts 1 s), and
 * `URL/healthz` every 20 ms, for `SECONDS`; prints `{dns: {p99, max, lost}, health}` as JSON.
 * Plain JavaScript, so that it starts measuring at once instead of compiling first.
 */
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

const RATE = 200;
const seconds = Number(process.env.SECONDS);

async function dnsProbe(port, name) {
  const socket = dgram.createSocket('udp4');
  const sent = new Map();
  const latencies = [];
  socket.on('message', (reply) => {
    const id = reply.readUInt16BE(0);
    const at = sent.get(id);
    if (at === undefined) return;
    sent.delete(id);
    latencies.push(performance.now() - at);
  });
  const total = RATE * seconds;
  const started = performance.now();
  for (let n = 0; n < total; ) {
    while (n < total && started + (n * 1000) / RATE <= performance.now()) {
      sent.set(n, started + (n * 1000) / RATE);
      const packet = { id: n, type: 'query', questions: [{ name, type: 'TXT', class: 'IN' }] };
      socket.send(dnsPacket.encode(packet), port, '127.0.0.1');
      n++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  socket.close();
  const lost = sent.size;
  for (let i = 0; i < lost; i++) latencies.push(1000);
  latencies.sort((a, b) => a - b);
  return { p99: latencies[Math.floor(0.99 * latencies.length)] ?? 0, max: latencies.at(-1) ?? 0, lost };
}

async function healthProbe(url) {
  let worst = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
    worst = Math.max(worst, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return worst;
}

const [dns, health] = await Promise.all([
  dnsProbe(Number(process.env.DNS_PORT), process.env.NAME),
  healthProbe(process.env.URL),
]);
process.stdout.write(`${JSON.stringify({ dns, health })}\n`);
