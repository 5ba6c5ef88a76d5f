import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The package folder. */
export const PACKAGE_DIR = path.resolve(here, '..');

/** One upload the fake image service received, as it parsed it. */
export interface ReceivedUpload {
  authorization: string | undefined;
  fields: Record<string, string>;
  fileName: string;
  fileType: string;
  fileSize: number;
}

/**
 * Builds the script-tag bundle and stylesheet straight from `src/` with esbuild, so browser tests
 * always run the current source (no stale `dist/`).
 */
export async function buildBrowserBundle(): Promise<{ js: string; css: string }> {
  const [js, css] = await Promise.all([
    esbuild.build({
      entryPoints: [path.join(PACKAGE_DIR, 'src/iife.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'ServiceEmailBuilder',
      write: false,
      target: 'es2020',
      logLevel: 'silent',
    }),
    esbuild.build({
      entryPoints: [path.join(PACKAGE_DIR, 'src/styles/service.css')],
      bundle: true,
      write: false,
      logLevel: 'silent',
    }),
  ]);
  return { js: js.outputFiles[0]!.text, css: css.outputFiles[0]!.text };
}

function multipart(
  body: Buffer,
  contentType: string,
): { fields: Record<string, string>; file: { name: string; type: string; size: number } | null } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; size: number } | null = null;
  if (!boundary) return { fields, file };
  const sep = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let start = body.indexOf(sep);
  while (start !== -1) {
    const next = body.indexOf(sep, start + sep.length);
    if (next === -1) break;
    const part = body.subarray(start + sep.length + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, headEnd).toString();
    const content = part.subarray(headEnd + 4);
    const name = /name="([^"]+)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (filename !== undefined)
      file = { name: filename, type: /Content-Type: (\S+)/i.exec(head)?.[1] ?? '', size: content.length };
    else fields[name] = content.toString();
    start = next;
  }
  return { fields, file };
}

/**
 * A local HTTP server for browser tests on 127.0.0.1 (port 0): serves pages and the bundle, and
 * `/api/v1/files/upload` speaks ImageKit's upload protocol (multipart `file`, `fileName`,
 * `folder`; `Authorization: Basic base64(token:)`; JSON `{ url, fileId, name }`), answering 401
 * for a wrong token and 500 for files named `fail*`. Uploaded images are served back.
 */
export async function startTestServer(opts: { token: string; pages?: Record<string, string> }) {
  const bundle = await buildBrowserBundle();
  const uploads: ReceivedUpload[] = [];
  const stored = new Map<string, { type: string; body: Buffer }>();
  const pages = new Map(Object.entries(opts.pages ?? {}));
  const png = readFileSync(path.join(here, 'pixel.png'));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'access-control-allow-origin': '*' });
      res.end(body);
    };
    if (url.pathname === '/service.js') return send(200, 'text/javascript', bundle.js);
    if (url.pathname === '/service.css') return send(200, 'text/css', bundle.css);
    if (url.pathname === '/pixel.png') return send(200, 'image/png', png);
    const asset = /^\/assets\/([a-z-]+\.png)$/.exec(url.pathname);
    if (asset) return send(200, 'image/png', readFileSync(path.join(here, asset[1]!)));
    if (url.pathname.startsWith('/images/')) {
      const img = stored.get(url.pathname);
      return img ? send(200, img.type, img.body) : send(404, 'text/plain', 'not found');
    }
    if (url.pathname === '/api/v1/files/upload' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const { fields, file } = multipart(body, req.headers['content-type'] ?? '');
        const expected = `Basic ${Buffer.from(`${opts.token}:`).toString('base64')}`;
        uploads.push({
          authorization: req.headers.authorization,
          fields,
          fileName: file?.name ?? '',
          fileType: file?.type ?? '',
          fileSize: file?.size ?? 0,
        });
        if (req.headers.authorization !== expected)
          return send(
            401,
            'application/json',
            JSON.stringify({ message: 'Your request does not contain private API key.' }),
          );
        if (!file)
          return send(
            400,
            'application/json',
            JSON.stringify({ message: 'Missing file parameter for upload' }),
          );
        if (fields.fileName?.startsWith('fail'))
          return send(500, 'application/json', JSON.stringify({ message: 'Storage is full' }));
        const id = randomUUID();
        const stem = `/images/${id}-${(fields.fileName ?? 'image').replace(/[^\w.-]/g, '_')}`;
        const part = body.indexOf('\r\n\r\n', body.indexOf('filename=')) + 4;
        stored.set(stem, { type: file.type, body: body.subarray(part, part + file.size) });
        const address = server.address() as AddressInfo;
        return send(
          200,
          'application/json',
          JSON.stringify({
            fileId: id,
            name: fields.fileName,
            url: `http://127.0.0.1:${address.port}${stem}`,
            fileType: 'image',
          }),
        );
      });
      return;
    }
    const page = pages.get(url.pathname);
    if (page !== undefined) return send(200, 'text/html; charset=utf-8', page);
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    uploads,
    /** Adds or replaces a page. */
    setPage: (p: string, html: string) => pages.set(p, html),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A page that loads the bundle and stylesheet and holds `<div id="editor">`. */
export function editorPage(script = '', bodyStyle = 'margin:0;padding:24px;background:#fafafa'): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Editor test</title><link rel="stylesheet" href="/service.css"></head><body style="${bodyStyle}"><main><h1 style="position:absolute;left:-9999px">Editor</h1><div id="editor"></div></main><script src="/service.js"></script><script>${script}</script></body></html>`;
}
