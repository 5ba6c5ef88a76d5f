/**
 * Open and click tracking in a message's HTML (issue 37), applied when it is composed, on the
 * render threads (plain JavaScript for the same reason as `compose.js`). Each `http(s)` link
 * goes through the tracking host (`<base>/t/c/<mark>/<the link, base64url>`) and an invisible
 * pixel (`<base>/t/o/<mark>`) closes the body. `<mark>` stands for the recipient: every
 * recipient's copy gets its own signed token in its place when it is sent (`tracking.ts`), so
 * a message to several people says who opened it, and a link cannot be pointed elsewhere.
 */

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
