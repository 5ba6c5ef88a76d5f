/**
 * Text into HTML for the API reference page: escaping, and the small Markdown subset the
 * OpenAPI document's descriptions use (`code`, [links](/), **bold**, blank-line paragraphs).
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside an element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * A link target the page may carry: a path or fragment on this server, or an http(s) URL.
 * Anything else (`javascript:`, `data:`) is dropped, so a description cannot script the page.
 */
function safeHref(href: string): string | null {
  if (/^(\/|#)/.test(href) || /^https?:\/\//i.test(href)) return href;
  return null;
}

/**
 * One paragraph of Markdown as inline HTML. Code spans are taken first, so what they hold is
 * shown literally (`<API_KEY>` stays text); everything else is escaped before links and bold
 * are recognised.
 */
export function inlineMarkdown(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.length >= 2 && part.startsWith('`') && part.endsWith('`')) {
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      }
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) => {
          // The href was escaped with the rest; escaped again it would show &amp;amp;.
          const target = safeHref(href.replace(/&amp;/g, '&'));
          return target === null ? whole : `<a href="${escapeHtml(target)}">${label}</a>`;
        })
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    })
    .join('');
}

/** Markdown paragraphs (separated by blank lines) as `<p>` elements. */
export function markdownParagraphs(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0)
    .map((paragraph) => `<p>${inlineMarkdown(paragraph)}</p>`)
    .join('');
}
