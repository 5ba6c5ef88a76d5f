/**
 * The visual constants the email renderer shares. Colours and sizes are inline: Gmail drops
 * `<style>` in some views (non-Google accounts in the Gmail apps).
 */
export const FONT = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
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

/** `;text-align:x` unless x is the default left. */
export function alignStyle(align: unknown): string {
  return align === 'center' || align === 'right' ? `;text-align:${align}` : '';
}
