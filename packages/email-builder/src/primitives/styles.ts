/**
 * The visual constants the email renderer shares. Colours and sizes are inline: Gmail drops
 * `<style>` in some views (non-Google accounts in the Gmail apps).
 */
export const FONT = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
/**
 * Long unbroken strings (a pasted URL, an e-mail address, a long word in a button) break
 * instead of widening the email past a phone's screen. Set once on the content cell and
 * inherited. `word-break:break-word` is the form Apple Mail, Gmail and Outlook (but Windows
 * Mail) honour, per caniemail, and WebKit and Blink count it in a table cell's minimum width;
 * the standard `overflow-wrap` is stripped by Gmail and Outlook, and its `break-word` value
 * would not narrow a table cell anyway.
 */
export const WRAP = 'word-break:break-word';
/** Body text colour (light mode); dark mode swaps it through the `.sv-t` class. */
export const TEXT = '#27272a';
/** Secondary text (quotes, footers). */
export const MUTED = '#71717a';
/** Default link colour. */
export const LINK = '#2563eb';
/** Dark-mode text colours, applied by `@media (prefers-color-scheme: dark)` where clients allow. */
export const DARK_TEXT = '#e4e4e7';
export const DARK_MUTED = '#a1a1aa';

/** The layout-table opening every block uses: presentation role, no borders or spacing. */
export const TABLE = '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"';

/**
 * `style` values for text of a given size. The font family is inherited from the content cell
 * (Outlook for Windows, which does not always inherit, gets it from the head's MSO-only style,
 * as it gets `mso-line-height-rule:exactly` for these px line heights); that keeps the output small.
 */
export function textStyle(size: number, lineHeight: number, margin = '0', color = TEXT): string {
  return `margin:${margin};font-size:${size}px;line-height:${Math.round(size * lineHeight)}px;color:${color}`;
}

/**
 * The physical sides where a line of text starts and ends in a document of direction `dir`.
 * Logical properties (`padding-inline-start`, `border-inline-start`) would say this by
 * themselves, but the Word engine of Outlook for Windows and older webmail do not know them, so
 * the renderer writes `left` or `right`, chosen here from the document's `dir`.
 */
export function textSides(dir: string): { start: 'left' | 'right'; end: 'left' | 'right' } {
  return dir === 'rtl' ? { start: 'right', end: 'left' } : { start: 'left', end: 'right' };
}

/**
 * A four-value `padding` or `margin` given by the text's sides: `top`, `end` (where lines end),
 * `bottom`, `start` (where lines start, where bullets hang), written in CSS's physical order
 * (top right bottom left) for the direction `dir`.
 *
 * @example
 * flowBox('rtl', '0', '0', '0', '24px') // '0 24px 0 0': a list indented on the right
 */
export function flowBox(dir: string, top: string, end: string, bottom: string, start: string): string {
  return dir === 'rtl' ? `${top} ${start} ${bottom} ${end}` : `${top} ${end} ${bottom} ${start}`;
}

/**
 * `;text-align:x` unless x is `left`, the default, which stands for the start side: the text
 * then takes the content cell's alignment, which is `right` in a right-to-left document.
 */
export function alignStyle(align: unknown): string {
  return align === 'center' || align === 'right' ? `;text-align:${align}` : '';
}
