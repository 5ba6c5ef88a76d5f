import { escapeHtml } from './escape.js';
import { FONT } from './styles.js';

/**
 * Outlook for Windows (Word rendering engine) ignores `max-width` and `display:inline-block`, so
 * fluid layouts get "ghost tables": fixed-width tables inside `<!--[if mso]>` comments that only
 * Outlook for Windows reads.
 */
export function msoOnly(html: string): string {
  return `<!--[if mso]>${html}<![endif]-->`;
}

/** Content hidden from Outlook for Windows (the non-VML half of a bulletproof element). */
export function notMso(html: string): string {
  return `<!--[if !mso]><!-->${html}<!--<![endif]-->`;
}

/** Opens a ghost table row of fixed-width cells for Outlook for Windows. */
export function ghostTable(width: number, align = 'center'): string {
  return msoOnly(
    `<table role="presentation" width="${width}" align="${align}" cellpadding="0" cellspacing="0" border="0"><tr>`,
  );
}

/**
 * A VML rounded rectangle: the "bulletproof button" for Outlook for Windows, which ignores
 * padding and border-radius on links. The HTML link beside it is hidden there with `notMso`.
 */
export function vmlButton(opts: {
  href: string;
  text: string;
  width: number;
  height: number;
  radius: number;
  fill: string;
  color: string;
  fontSize: number;
}): string {
  const arc = Math.min(50, Math.round((opts.radius / Math.min(opts.height, opts.width)) * 100));
  return msoOnly(
    `<v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" xmlns:w="urn:schemas-microsoft-com:office:word" href="${escapeHtml(opts.href)}" style="height:${opts.height}px;v-text-anchor:middle;width:${opts.width}px" arcsize="${arc}%" stroke="f" fillcolor="${opts.fill}"><w:anchorlock/><center style="color:${opts.color};font-family:${FONT};font-size:${opts.fontSize}px;font-weight:bold">${escapeHtml(opts.text)}</center></v:roundrect>`,
  );
}
