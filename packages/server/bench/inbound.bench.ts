/**
 * Issue 34's inbound listener as figures (`BENCH_ONLY=inbound`): bounces (DSNs) taken per
 * second over 4 connections, each read with mailparser, matched to its recipient by its VERP
 * address and recorded (event, status, suppression, webhook outbox) in one transaction; and
 * another account's status p99 while the burst lasts, against the same poll quiet. SQLite, one
 * process, the built server as `npm start` runs it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { returnPathAddress, returnPathKey } from '../src/email/return-path.js';
import { sqliteFile } from '../src/store/open.js';
import { startBind } from '../src/test-support/bind.js';
import { deliveryStatusReport } from '../src/test-support/reports.js';
import { verifiedDomain } from './sending.bench.js';
import { fmt, poll, startService } from './support.js';

const DOMAIN = 'shop.customer.test';
const MESSAGES = 2_000;
const CONNECTIONS = 4;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dsn = (to: string, recipient: string) =>
  deliveryStatusReport({
    to,
    mta: 'mx.recipient.test',
    recipient,
    status: '5.1.1',
    diagnostic: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown`,
  });

export async function runInboundBench(): Promise<void> {
  const bind = await startBind({ zones: ['customer.test'] });
  const secret = randomBytes(32);
  const smtpPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-inbound-')),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SECRET_KEY: secret.toString('hex'),
    DNS_RESOLVERS: bind.address,
    DKIM_PROVIDER_HOST: 'provider.test',
    RATE_LIMIT_MAX: '100000000',
    MAX_EMAILS_PER_MINUTE: '1000000',
    SENDING_ENABLED: 'false',
    WEBHOOKS_ENABLED: 'false',
    SCHEDULER_ENABLED: 'false',
    SMTP_LISTEN: `127.0.0.1:${smtpPort}`,
  };
  try {
    const key = await verifiedDomain({ ...env, SMTP_LISTEN: '', STATUS_CHECK_MAX_AGE_MS: '0' }, bind, DOMAIN);
    const service = await startService(env);
    try {
      const headers = { authorization: key, 'content-type': 'application/json' };
      for (let i = 0; i < MESSAGES; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            fetch(`${service.url}/api/public/emails`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                from: `Shop <orders@${DOMAIN}>`,
                to: [`r${i + j}@recipient.test`],
                subject: 'Your order',
                html: '<p>Thank you</p>',
              }),
            }),
          ),
        );
      }
      const db = new SQLite(sqliteFile(env.DATA_DIR!), { readonly: true });
      const recipients = db.prepare('select id, address from email_recipients').all() as {
        id: string;
        address: string;
      }[];
      db.close();
      const bounceKey = returnPathKey(secret);
      await fetch(`${service.url}/api/public/domain`, {
        method: 'POST',
        headers: { authorization: service.key, 'content-type': 'application/json' },
        body: JSON.stringify({ domains: [{ domain: 'victim.bench.example', domainType: 'Transactional' }] }),
      });
      const status = () =>
        poll({
          url: `${service.url}/api/public/domain/status`,
          method: 'POST',
          headers: { authorization: service.key, 'content-type': 'application/json' },
          body: JSON.stringify({ domains: ['victim.bench.example'] }),
          rate: 500,
          seconds: 4,
        });
      await status(); // warm-up
      const quiet = await status();

      let next = 0;
      const started = performance.now();
      const burst = Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          const transport = nodemailer.createTransport({
            host: '127.0.0.1',
            port: smtpPort,
            secure: false,
            ignoreTLS: true,
            pool: true,
            maxConnections: 1,
            maxMessages: Number.POSITIVE_INFINITY,
          });
          try {
            for (let n = next++; n < recipients.length; n = next++) {
              const r = recipients[n]!;
              const to = returnPathAddress(bounceKey, r.id, `bounces.${DOMAIN}`);
              await transport.sendMail({ envelope: { from: '', to: [to] }, raw: dsn(to, r.address) });
            }
          } finally {
            transport.close();
          }
        }),
      );
      const busy = await status();
      await burst;
      const seconds = (performance.now() - started) / 1000;
      const suppressions = await (
        await fetch(`${service.url}/api/public/suppressions`, { headers: { authorization: key } })
      ).json();

      console.log('\n### Inbound reports (issue 34): DSNs over 4 SMTP connections, SQLite, one process');
      console.log('| figure | value |');
      console.log('|---|---|');
      console.log(
        `| DSNs taken (parsed, matched, recorded) | ${fmt(recipients.length)} in ${fmt(seconds, 1)} s: **${fmt(recipients.length / seconds)}/s** |`,
      );
      console.log(
        `| another account's status p99 (500/s) | ${fmt(busy.p99, 1)} ms during the burst against ${fmt(quiet.p99, 1)} ms quiet: **${fmt(busy.p99 / quiet.p99, 2)}×** |`,
      );
      console.log(
        `| suppressions afterwards (first page) | ${(suppressions as { data: unknown[] }).data.length} |`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await bind.close();
  }
}
