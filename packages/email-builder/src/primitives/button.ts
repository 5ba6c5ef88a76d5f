import { escapeHtml } from './escape.js';
import { notMso, vmlButton } from './mso.js';
import { FONT } from './styles.js';
import { safeLinkUrl } from './url.js';

/** A button's look and target, as the button block and custom blocks give them. */
export interface ButtonParts {
  text: string;
  /** Checked again here: an unsafe link renders the face without a link. */
  href: string;
  backgroundColor: string;
  textColor: string;
  borderRadius: number;
  fullWidth?: boolean;
}

const FONT_SIZE = 16;
const HEIGHT = 44;

/** Outlook's VML needs a fixed width: estimated from the text at about 0.6 em per character. */
function vmlWidth(parts: ButtonParts, available: number): number {
  if (parts.fullWidth) return available;
  return Math.min(available, Math.max(120, Math.round(parts.text.length * FONT_SIZE * 0.6) + 56));
}

/** The style of the button's face: a padded, rounded link (or span without a link). */
export function buttonFaceStyle(parts: ButtonParts): string {
  const display = parts.fullWidth ? 'display:block' : 'display:inline-block';
  return `${display};padding:12px 28px;background-color:${parts.backgroundColor};border-radius:${parts.borderRadius}px;color:${parts.textColor};font-family:${FONT};font-size:${FONT_SIZE}px;font-weight:600;line-height:20px;text-align:center;text-decoration:none;-webkit-text-size-adjust:none`;
}

/**
 * A call-to-action button for email, as cell content: everywhere but Outlook for Windows a
 * padded link; there, a VML rounded rectangle (the "bulletproof button") of the same shape,
 * `available` pixels wide at most. Text escaped, link checked.
 */
export function emailButton(parts: ButtonParts, available: number): string {
  const href = safeLinkUrl(parts.href);
  const label = parts.text || 'Button';
  const vml = vmlButton({
    href,
    text: label,
    width: vmlWidth(parts, available),
    height: HEIGHT,
    radius: parts.borderRadius,
    fill: parts.backgroundColor,
    color: parts.textColor,
    fontSize: FONT_SIZE,
  });
  const style = buttonFaceStyle(parts);
  const face = href
    ? `<a href="${escapeHtml(href)}" target="_blank" style="${style}">${escapeHtml(label)}</a>`
    : `<span style="${style}">${escapeHtml(label)}</span>`;
  return `${vml}${notMso(face)}`;
}
