/**
 * A certificate authority of a test's own, made with openssl (P-256: milliseconds each), for
 * servers whose certificates are checked: MTA-STS policy hosts and MX hosts under `enforce`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestCa {
  /** The CA's certificate file (PEM): what `SMTP_TLS_CA_FILE` names. */
  file: string;
  /** A key and a certificate for `names` (DNS names), signed by this CA. */
  issue(names: string[]): Promise<{ key: string; cert: string }>;
  close(): void;
}

export async function createTestCa(): Promise<TestCa> {
  const dir = mkdtempSync(path.join(tmpdir(), 'test-ca-'));
  const file = path.join(dir, 'ca.pem');
  const caKey = path.join(dir, 'ca.key');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-days',
    '2',
    '-subj',
    '/CN=Test CA',
    '-keyout',
    caKey,
    '-out',
    file,
  ]);
  let serial = 0;
  return {
    file,
    async issue(names) {
      const n = ++serial;
      const [key, csr, cert, ext] = ['key', 'csr', 'crt', 'ext'].map((x) => path.join(dir, `${n}.${x}`)) as [
        string,
        string,
        string,
        string,
      ];
      await run('openssl', ['req', ...ec, '-subj', `/CN=${names[0]}`, '-keyout', key, '-out', csr]);
      writeFileSync(ext, `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\n`);
      await run('openssl', [
        ...['x509', '-req', '-in', csr, '-CA', file, '-CAkey', caKey, '-days', '2'],
        ...['-set_serial', String(n), '-extfile', ext, '-out', cert],
      ]);
      return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
