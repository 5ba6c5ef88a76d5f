/**
 * Open and click tracking in a message (issue 37), on the render threads (plain JavaScript for
 * the same reason as `compose.js`: a 3.7 MB page took 100–500 ms to personalise, too long for
 * the event loop). When the message is composed, each `http(s)` link goes through the tracking
 * host (`<base>/t/c/<mark>/<the link, base64url>`) and an invisible pixel (`<base>/t/o/<mark>`)
 * closes the body. `<mark>` stands for the recipient: each recipient's copy gets its own signed
 * tokens in its place when it is sent (`personalise`), so a message to several people says who
 * opened it, and a link cannot be pointed elsewhere (`tracking.ts` reads the tokens back).
 */
import { createHmac } from 'node:crypto';

/** What stands for the recipient's token until each copy is personalised. */
export const RECIPIENT_MARK = 'RCPT~MARK';

/** SendGrid's `clicktracking=off` and our `data-track="false"` leave a link as it is. */
const NOT_TRACKED = (attributes) =>
  attributes.some(
    ({ name, value }) =>
      (name === 'clicktracking' && value?.toLowerCase() === 'off') ||
      (name === 'data-track' && value?.toLowerCase() === 'false'),
  );
/** Longest link tracked: what `tracking.ts` follows. A longer one stays as written. */
export const MAX_URL = 4_000;

const NAMED = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
/** The character references a URL in an attribute holds in practice (`&amp;` above all). */
const decodeAttribute = (value) =>
  value.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|quot|apos|lt|gt));/gi, (whole, dec, hex, name) => {
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED[name.toLowerCase()];
  });

const SPACE = /[\t\n\f\r ]/;

/**
 * The attributes of the start tag whose name ends at `from`, read one by one as HTML's
 * tokenizer reads them (a quoted value may hold `>` or `href=`), and where the tag ends; `end`
 * is -1 when it never does. One pass over the tag: no pattern that backtracks on `<a <a <a …`.
 * @param {string} html
 * @param {number} from
 */
function readTag(html, from) {
  const attributes = [];
  let i = from;
  for (;;) {
    while (i < html.length && (SPACE.test(html[i]) || html[i] === '/')) i++;
    if (i >= html.length) return { attributes, end: -1 };
    if (html[i] === '>') return { attributes, end: i + 1 };
    const nameStart = i;
    while (i < html.length && !SPACE.test(html[i]) && !'/>='.includes(html[i])) i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < html.length && SPACE.test(html[i])) i++;
    if (html[i] !== '=') {
      attributes.push({ name, value: undefined, start: nameStart, end: i });
      continue;
    }
    i++;
    while (i < html.length && SPACE.test(html[i])) i++;
    let value;
    if (html[i] === '"' || html[i] === "'") {
      const close = html.indexOf(html[i], i + 1);
      if (close === -1) return { attributes, end: -1 };
      value = html.slice(i + 1, close);
      i = close + 1;
    } else {
      const valueStart = i;
      while (i < html.length && !SPACE.test(html[i]) && html[i] !== '>') i++;
      value = html.slice(valueStart, i);
    }
    attributes.push({ name, value, start: nameStart, end: i });
  }
}

/**
 * The link as it is followed and signed: parsed and written back by the URL standard (so an
 * IDN host is punycode, a stray newline is dropped, non-ASCII is percent-encoded: a redirect
 * can carry it), or `undefined` when it is not an `http(s)` URL one can follow.
 * @param {string} raw
 */
function followable(raw) {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.href.length <= MAX_URL
    ? url.href
    : undefined;
}

/**
 * The HTML with tracking: links rewritten when `clicks`, the pixel added when `opens`. A link
 * stays as written when it is not `http(s)`, starts with one of `keep` (our own unsubscribe
 * page), says `clicktracking=off` / `data-track="false"`, or is longer than 4,000 characters.
 * @param {string} html
 * @param {{ base: string, opens: boolean, clicks: boolean, keep: string[] }} options
 * @returns {string}
 */
export function addTracking(html, options) {
  let out = html;
  if (options.clicks) {
    const parts = [];
    let copied = 0;
    const anchors = /<a[\t\n\f\r ]/gi;
    for (let found = anchors.exec(html); found !== null; found = anchors.exec(html)) {
      const tag = readTag(html, found.index + 2);
      if (tag.end === -1) break;
      anchors.lastIndex = tag.end;
      const href = tag.attributes.find((a) => a.name === 'href');
      if (href?.value === undefined || NOT_TRACKED(tag.attributes)) continue;
      const url = followable(decodeAttribute(href.value.trim()));
      if (url === undefined || options.keep.some((k) => url.startsWith(k))) continue;
      const tracked = `${options.base}/t/c/${RECIPIENT_MARK}/${Buffer.from(url).toString('base64url')}`;
      parts.push(html.slice(copied, href.start), `href="${tracked}"`);
      copied = href.end;
    }
    parts.push(html.slice(copied));
    out = parts.join('');
  }
  if (options.opens) {
    const pixel = `<img src="${options.base}/t/o/${RECIPIENT_MARK}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;" />`;
    let close = -1;
    for (const found of out.matchAll(/<\/body\s*>/gi)) close = found.index;
    out = close === -1 ? out + pixel : out.slice(0, close) + pixel + out.slice(close);
  }
  return out;
}

/**
 * The stored message's text as its sender wrote it, for reading it back (the content API and the
 * dashboard): a tracked link is its destination again and the open pixel is left out. The
 * stored copy holds only the mark where each recipient's token goes, so its links led nowhere,
 * and a reader who followed one would have counted as a click.
 * @param {string} content an HTML part (`html`) or a text part, decoded
 * @param {boolean} html whether `content` is HTML (a restored link is written as an attribute value)
 * @returns {string}
 */
export function withoutTracking(content, html) {
  if (!content.includes(RECIPIENT_MARK)) return content;
  return content
    .replace(TRACKED_LINK, (_, encodedUrl) => {
      const url = Buffer.from(encodedUrl, 'base64url').toString('utf8');
      return html ? url.replace(/&/g, '&amp;').replace(/"/g, '&quot;') : url;
    })
    .replace(PIXEL, '');
}

const TRACKED_LINK = new RegExp(`https?://[^/\\s"'<>]+/t/c/${RECIPIENT_MARK}/([A-Za-z0-9_-]+)`, 'g');
const PIXEL = new RegExp(`<img src="https?://[^/\\s"'<>]+/t/o/${RECIPIENT_MARK}"[^>]*>`, 'g');

const MAC_BYTES = 16;

/**
 * A token's MAC: HMAC-SHA256 under the tracking key over the purpose, the recipient and, for a
 * click, the link and the tracking host it goes through (so a customer's signed link cannot be
 * replayed through another customer's host), cut to 128 bits.
 * @param {Uint8Array} key
 * @param {'open' | 'click'} purpose
 * @param {string} recipientId
 * @param {string} [url]
 * @param {string} [host]
 * @returns {Buffer}
 */
export function trackingMac(key, purpose, recipientId, url = '', host = '') {
  return createHmac('sha256', key)
    .update(`${purpose}\n${recipientId}\n${url}\n${host}`)
    .digest()
    .subarray(0, MAC_BYTES);
}

/**
 * Where the mark stands in a composed part: `//<host>/t/o/<mark>` or `//<host>/t/c/<mark>/<link>`
 * (the host without its port, as the tracking routes see it).
 */
const MARKED = new RegExp(`//([^/:\\s"'<>]+)(:\\d+)?/t/([oc])/${RECIPIENT_MARK}(?:/([A-Za-z0-9_-]+))?`, 'g');

/**
 * One recipient's copy of a tracked message: in each text part (never an attachment), the mark
 * becomes the recipient's tokens. Parts are found by their boundary lines (`\r\n--`, which
 * base64 never holds) with `indexOf`, decoded, personalised and encoded again, 76 characters a
 * line; everything else is copied as it is.
 * @param {string} message
 * @param {Uint8Array} key
 * @param {string} recipientId
 * @returns {string}
 */
export function personalise(message, key, recipientId) {
  const out = [];
  let copied = 0;
  for (let at = message.indexOf('\r\n--'); at !== -1; ) {
    const headersStart = message.indexOf('\r\n', at + 4);
    const headersEnd = headersStart === -1 ? -1 : message.indexOf('\r\n\r\n', headersStart);
    if (headersEnd === -1) break;
    const next = message.indexOf('\r\n--', headersEnd);
    const bodyEnd = next === -1 ? message.length : next;
    const headers = message.slice(headersStart, headersEnd + 2);
    const text =
      /\r\ncontent-type:\s*text\/(html|plain)/i.test(headers) && !/\r\ncontent-disposition:/i.test(headers);
    const base64 = /\r\ncontent-transfer-encoding:\s*base64/i.test(headers);
    // nodemailer writes short ASCII text as 7bit even when asked for base64: the mark is as is
    const plain = !/\r\ncontent-transfer-encoding:\s*(base64|quoted-printable)/i.test(headers);
    if (text && (base64 || plain)) {
      const body = message.slice(headersEnd + 4, bodyEnd);
      // Node's base64 decoder skips the line breaks
      const decoded = base64 ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (decoded.includes(RECIPIENT_MARK)) {
        const personal = decoded.replace(MARKED, (_, host, port = '', kind, encodedUrl = '') => {
          const url = kind === 'o' ? undefined : Buffer.from(encodedUrl, 'base64url').toString('utf8');
          const mac = trackingMac(
            key,
            kind === 'o' ? 'open' : 'click',
            recipientId,
            url,
            kind === 'o' ? '' : host.toLowerCase(),
          );
          const token = `${recipientId}.${mac.toString('base64url')}`;
          return `//${host}${port}/t/${kind}/${token}${kind === 'o' ? '' : `/${encodedUrl}`}`;
        });
        out.push(
          message.slice(copied, headersEnd + 4),
          base64 ? wrap(Buffer.from(personal).toString('base64')) : personal,
        );
        copied = bodyEnd;
      }
    }
    at = next;
  }
  out.push(message.slice(copied));
  return out.join('');
}

/**
 * Base64 in lines of 76 characters (RFC 2045), CRLF between them.
 * @param {string} encoded
 */
function wrap(encoded) {
  const lines = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join('\r\n');
}
