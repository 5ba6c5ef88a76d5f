/**
 * A DNS provider's side of Domain Connect (spec 2.3, synchronous flow) for tests: an HTTPS
 * server on 127.0.0.1 with a self-signed certificate, serving
 * - `GET /v2/{zone}/settings` for the zones it hosts (404 for others);
 * - `GET /api/v2/domainTemplates/providers/{providerId}/services/{serviceId}`: 200 for the
 *   templates it knows, 404 otherwise;
 * - `GET /sync/v2/domainTemplates/providers/{providerId}/services/{serviceId}/apply?…`: checks
 *   the signature as providers do, with the public key it reads from DNS at
 *   `<key>.<syncPubKeyDomain>` (pieces sorted by `p=`, joined, verified with RSA-SHA256 over the
 *   query as received minus `sig` and `key`), fills the template's variables, hands each record
 *   to `write` (the test publishes them in BIND by RFC 2136), then redirects to `redirect_uri`
 *   with `state`. A bad signature gets 400 and writes nothing.
 *
 * Written from the spec, apart from the service's own signing code, so it checks that code
 * rather than agreeing with it.
 */
import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** A template as the public repository holds it (the fields this provider reads). */
export interface ProviderTemplate {
  providerId: string;
  serviceId: string;
  syncPubKeyDomain?: string;
  records: { groupId?: string; type: string; host: string; pointsTo?: string; data?: string; ttl: number }[];
}

export interface StartProviderOptions {
  providerName: string;
  /** Zones it hosts: settings answer for these only. */
  zones: readonly string[];
  /** Templates it supports (it knows our template only if the test gives it). */
  templates: readonly ProviderTemplate[];
  /** TXT records at a name (each record's strings), as the provider's resolver sees them. */
  resolveTxt(name: string): Promise<string[][]>;
  /** Publish one record of an applied template. */
  write(record: { fqdn: string; type: string; value: string; ttl: number }): Promise<void>;
}

export interface DomainConnectProvider {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** What `_domainconnect.<zone>` holds for this provider: `127.0.0.1:PORT`. */
  readonly txtValue: string;
  /** The certificate to trust (PEM), e.g. through `DOMAIN_CONNECT_CA_FILE`. */
  readonly certificate: string;
  readonly certificateFile: string;
  /** Apply requests seen, with their outcome. */
  readonly applied: { query: string; outcome: 'applied' | 'refused'; why?: string }[];
  close(): Promise<void>;
}

export async function startDomainConnectProvider(
  options: StartProviderOptions,
): Promise<DomainConnectProvider> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dc-provider-'));
  const certificateFile = path.join(dir, 'cert.pem');
  // P-256: the certificate is made in milliseconds
  await promisify(execFile)('openssl', [
    ...'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1'.split(
      ' ',
    ),
    ...[
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      certificateFile,
    ],
  ]);
  const certificate = readFileSync(certificateFile, 'utf8');
  const applied: DomainConnectProvider['applied'] = [];
  let base = '';
  const server: Server = createServer(
    { key: readFileSync(path.join(dir, 'key.pem')), cert: certificate },
    (request, response) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(body === undefined ? '' : JSON.stringify(body));
      };
      const [pathname = '', rawQuery = ''] = (request.url ?? '').split('?', 2);
      const settings = /^\/v2\/([^/]+)\/settings$/.exec(pathname);
      if (settings) {
        if (!options.zones.includes(settings[1]!)) return send(404, { error: 'not hosted here' });
        return send(200, {
          providerId: 'dnsprovider.test',
          providerName: options.providerName,
          urlSyncUX: `${base}/sync`,
          urlAPI: `${base}/api`,
        });
      }
      const template =
        /^\/(api|sync)\/v2\/domainTemplates\/providers\/([^/]+)\/services\/([^/]+)(\/apply)?$/.exec(pathname);
      const known =
        template &&
        options.templates.find(
          (t) =>
            t.providerId === decodeURIComponent(template[2]!) &&
            t.serviceId === decodeURIComponent(template[3]!),
        );
      if (template && template[1] === 'api' && !template[4])
        return known ? send(200, { version: 1 }) : send(404, {});
      if (template && template[1] === 'sync' && template[4]) {
        if (!known) return send(404, { error: 'template not supported' });
        apply(known, rawQuery, options).then(
          (redirect) => {
            applied.push({ query: rawQuery, outcome: 'applied' });
            if (redirect) send(302, undefined, { location: redirect });
            else send(200, { applied: true });
          },
          (error: Error) => {
            applied.push({ query: rawQuery, outcome: 'refused', why: error.message });
            send(400, { error: 'invalid_request', error_description: error.message });
          },
        );
        return;
      }
      send(404, { error: 'no such route' });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `https://127.0.0.1:${port}`;
  return {
    url: base,
    txtValue: `127.0.0.1:${port}`,
    certificate,
    certificateFile,
    applied,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Verify, fill and write the template; the redirect to send the browser to, if any. */
async function apply(
  template: ProviderTemplate,
  rawQuery: string,
  options: StartProviderOptions,
): Promise<string | undefined> {
  const pieces = rawQuery.split('&');
  const signed = pieces.filter((p) => !p.startsWith('sig=') && !p.startsWith('key=')).join('&');
  const params = new URLSearchParams(rawQuery);
  const sig = params.get('sig');
  const key = params.get('key');
  if (template.syncPubKeyDomain !== undefined) {
    if (!sig || !key) throw new Error('the template requires a signed request');
    const records = await options.resolveTxt(`${key}.${template.syncPubKeyDomain}`);
    const parts = records
      .map((strings) =>
        Object.fromEntries(strings[0]!.split(',').map((f) => f.split(/=(.*)/s, 2) as [string, string])),
      )
      .sort((a, b) => Number(a.p) - Number(b.p));
    const spki = parts.map((p) => p.d).join('');
    const publicKey = createPublicKey(`-----BEGIN PUBLIC KEY-----\n${spki}\n-----END PUBLIC KEY-----\n`);
    if (!verify('sha256', Buffer.from(signed, 'utf8'), publicKey, Buffer.from(sig, 'base64')))
      throw new Error('signature not valid');
  }
  const domain = params.get('domain');
  if (!domain) throw new Error('domain is missing');
  const host = params.get('host') ?? '';
  const fqdnRoot = host ? `${host}.${domain}` : domain;
  const fill = (text: string) =>
    text.replace(/%([A-Za-z0-9_-]+)%/g, (_, name: string) => {
      if (name === 'domain') return domain;
      if (name === 'host') return host;
      if (name === 'fqdn') return fqdnRoot;
      const value = params.get(name);
      if (value === null) throw new Error(`variable ${name} is missing`);
      return value;
    });
  // `groupId`: only the template's records of these groups (all without it)
  const groups = params.get('groupId')?.split(',');
  for (const record of template.records) {
    if (groups !== undefined && !groups.includes(record.groupId ?? '')) continue;
    const name = fill(record.host);
    const fqdn = name === '@' || name === '' ? fqdnRoot : `${name}.${fqdnRoot}`;
    const value = fill(record.type === 'TXT' ? record.data! : record.pointsTo!);
    await options.write({
      fqdn,
      type: record.type,
      value: record.type === 'CNAME' ? `${value}.` : value,
      ttl: record.ttl,
    });
  }
  const redirect = params.get('redirect_uri');
  if (!redirect) return undefined;
  const back = new URL(redirect);
  const state = params.get('state');
  if (state !== null) back.searchParams.set('state', state);
  return back.toString();
}
