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

/** `<a …>` start tags; the attribute values may hold `>` only when quoted. */
const ANCHOR = /<a\s(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const HREF = /(\shref\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
/** SendGrid's `clicktracking=off` and our `data-track="false"` leave a link as it is. */
const NOT_TRACKED = /\s(?:clicktracking\s*=\s*["']?off|data-track\s*=\s*["']?false)\b/i;

const NAMED = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
/** The character references a URL in an attribute holds in practice (`&amp;` above all). */
const decodeAttribute = (value) =>
  value.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|quot|apos|lt|gt));/gi, (whole, dec, hex, name) => {
    const code = dec ? Number(dec) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED[name.toLowerCase()];
  });

/**
 * The HTML with tracking: links rewritten when `clicks`, the pixel added when `opens`. A link
 * stays as written when it is not `http(s)`, starts with one of `keep` (our own unsubscribe
 * page), or says `clicktracking=off` / `data-track="false"`.
 * @param {string} html
 * @param {{ base: string, opens: boolean, clicks: boolean, keep: string[] }} options
 * @returns {string}
 */
export function addTracking(html, options) {
  let out = html;
  if (options.clicks) {
    out = out.replace(ANCHOR, (tag) => {
      if (NOT_TRACKED.test(tag)) return tag;
      const href = HREF.exec(tag);
      if (!href) return tag;
      const url = decodeAttribute((href[3] ?? href[4] ?? href[5] ?? '').trim());
      if (!/^https?:\/\//i.test(url) || options.keep.some((k) => url.startsWith(k))) return tag;
      const tracked = `${options.base}/t/c/${RECIPIENT_MARK}/${Buffer.from(url).toString('base64url')}`;
      return tag.replace(href[0], `${href[1]}"${tracked}"`);
    });
  }
  if (options.opens) {
    const pixel = `<img src="${options.base}/t/o/${RECIPIENT_MARK}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;" />`;
    const close = out.toLowerCase().lastIndexOf('</body>');
    out = close === -1 ? out + pixel : out.slice(0, close) + pixel + out.slice(close);
  }
  return out;
}

const MAC_BYTES = 16;

/**
 * A token's MAC: HMAC-SHA256 under the tracking key over the purpose, the recipient and (for a
 * click) the link, cut to 128 bits.
 * @param {Uint8Array} key
 * @param {'open' | 'click'} purpose
 * @param {string} recipientId
 * @param {string} [url]
 * @returns {Buffer}
 */
export function trackingMac(key, purpose, recipientId, url = '') {
  return createHmac('sha256', key)
    .update(`${purpose}\n${recipientId}\n${url}`)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** Where the mark stands in a composed part: `/t/o/<mark>` or `/t/c/<mark>/<link>`. */
const MARKED = new RegExp(`/t/([oc])/${RECIPIENT_MARK}(?:/([A-Za-z0-9_-]+))?`, 'g');

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
    if (
      /\r\ncontent-type:\s*text\/(html|plain)/i.test(headers) &&
      /\r\ncontent-transfer-encoding:\s*base64/i.test(headers) &&
      !/\r\ncontent-disposition:/i.test(headers)
    ) {
      // Node's base64 decoder skips the line breaks
      const text = Buffer.from(message.slice(headersEnd + 4, bodyEnd), 'base64').toString('utf8');
      if (text.includes(RECIPIENT_MARK)) {
        const personal = text.replace(MARKED, (_, kind, encodedUrl = '') => {
          const url = kind === 'o' ? undefined : Buffer.from(encodedUrl, 'base64url').toString('utf8');
          const token = `${recipientId}.${trackingMac(key, kind === 'o' ? 'open' : 'click', recipientId, url).toString('base64url')}`;
          return kind === 'o' ? `/t/o/${token}` : `/t/c/${token}/${encodedUrl}`;
        });
        out.push(message.slice(copied, headersEnd + 4), wrap(Buffer.from(personal).toString('base64')));
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
