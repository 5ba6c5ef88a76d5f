import { ServiceEditorError } from '../errors.js';
import { changedAttrs, cleanAttrs } from '../model/attrs.js';
import { DOC_ATTRS, type DocSettings, docSettings } from '../model/doc.js';
import type { JSONNode } from '../model/types.js';
import type { RenderContext, TextContext } from '../nodes/rendering.js';
import { PHONE_SLOTS, PILL_SLOT } from '../nodes/social/render.js';
import { darkSurface, darkTextColor, highlightTextColor } from '../primitives/dark-color.js';
import { escapeHtml } from '../primitives/escape.js';
import { DARK_MUTED, DARK_TEXT, FONT, textSides, WRAP } from '../primitives/styles.js';
import { type BlockOptions, type RenderSet, renderSet } from '../registry/render-set.js';
import { guardHtml, guardText } from '../variables/condition-syntax.js';
import { TEMPLATE_SYNTAXES, type TemplateSyntax, toSyntax } from '../variables/export-syntax.js';
import { renderInline, renderInlineText } from './inline.js';

export type { BlockOptions };

/**
 * Overrides of the document's own settings at render time (the preview and templates use
 * them), and the custom blocks the document may hold.
 */
export type RenderOptions = Partial<Pick<DocSettings, 'preheader' | 'lang' | 'dir' | 'title'>> &
  BlockOptions &
  SyntaxOption;

/** The template engine to write merge tags, conditions and repeats for (see the README). */
export interface SyntaxOption {
  /**
   * `handlebars`, `liquid` or `mustache`: the output for that engine. Absent: the editor's own
   * syntax (`{{name|fallback}}`, `{{#if}}`, `{{#each}}`), which `renderTemplate` fills.
   */
  syntax?: TemplateSyntax;
}

/** `out` in the syntax asked for; throws `SEB_ERR_SYNTAX` for one that is not known. */
function inSyntax(out: string, syntax: unknown, format: 'html' | 'text'): string {
  if (syntax === undefined) return out;
  if (!(TEMPLATE_SYNTAXES as readonly unknown[]).includes(syntax))
    throw new ServiceEditorError('SEB_ERR_SYNTAX', {
      syntax: String(syntax),
      reason: `the syntax must be one of ${TEMPLATE_SYNTAXES.join(', ')}`,
    });
  return toSyntax(out, syntax as TemplateSyntax, format);
}

/** The dark-mode classes of one render (see {@link darkClasses}). */
type DarkClasses = ReturnType<typeof darkClasses>;

/**
 * The dark-mode classes of one render: one per distinct dark colour, named in order of first
 * use, so a colour used a hundred times costs one rule. Each colour is mapped once per surface.
 */
function darkClasses() {
  const names = new Map<string, string>(); // dark colour → class name
  const attrs = new Map<string, string>(); // colour and surface → class attribute
  /** ` class="…"` for text shown in `darkColor` in dark mode. */
  const classFor = (darkColor: string): string => {
    if (!names.has(darkColor)) names.set(darkColor, `sv-tc${names.size}`);
    return ` class="${names.get(darkColor)}"`;
  };
  return {
    /** ` class="…"` for text of `color` on the dark `surface`, or '' when it reads there as it is. */
    attr(color: string, surface: string): string {
      const key = `${color}/${surface}`;
      let attr = attrs.get(key);
      if (attr === undefined) {
        const darkColor = darkTextColor(color, surface);
        attr = darkColor === color ? '' : classFor(darkColor);
        attrs.set(key, attr);
      }
      return attr;
    },
    /**
     * ` class="…"` for text of light-mode colour `ink` on a `highlight`: always one, since the
     * text around it turns light in dark mode while the highlight stays (see {@link highlightTextColor}).
     */
    highlight: (ink: string, highlight: string): string => classFor(highlightTextColor(ink, highlight)),
    /** `.sv-tc0{color:…!important}` for each class given out. */
    rules: (): string[] => [...names].map(([color, name]) => `.${name}{color:${color}!important}`),
  };
}

/**
 * Where blocks are being rendered: the width they may fill, list depth, the panel they sit on,
 * and whether the block ends its container flush.
 */
interface Scope {
  settings: DocSettings;
  width: number;
  listDepth: number;
  panel: boolean;
  flushEnd: boolean;
  dark: DarkClasses;
  set: RenderSet;
}

function blockContext(scope: Scope): RenderContext {
  const { settings, width, listDepth, panel, flushEnd, dark, set } = scope;
  const surface = darkSurface(settings, panel);
  const ctx: RenderContext = {
    width,
    settings,
    listDepth,
    flushEnd,
    blocks: (nodes, opts) => {
      const inner: Scope = {
        ...scope,
        width: opts?.width ?? width,
        listDepth: opts?.listDepth ?? listDepth,
        panel: opts?.panel ?? panel,
        flushEnd: false,
      };
      const last = opts?.flushEnd ? blockContext({ ...inner, flushEnd: true }) : undefined;
      return renderBlocks(set, nodes, blockContext(inner), last);
    },
    inline: (nodes) => renderInline(set, nodes, ctx),
    darkTextAttr: (color) => dark.attr(color, surface),
    darkHighlightAttr: (ink, highlight) => dark.highlight(ink, highlight),
    darkSurface: surface,
  };
  return ctx;
}

/** Renders `nodes` in `ctx`, the last of them in `lastCtx` when given. */
function renderBlocks(
  set: RenderSet,
  nodes: readonly JSONNode[] | undefined,
  ctx: RenderContext,
  lastCtx: RenderContext = ctx,
): string {
  let out = '';
  const list = nodes ?? [];
  list.forEach((node, i) => {
    const def = set.byName.get(node.type);
    if (!def || node.type === 'doc')
      throw new ServiceEditorError('SEB_ERR_UNKNOWN_NODE', { type: String(node?.type) });
    const html = def.render(node, cleanAttrs(def.attrs, node.attrs), i === list.length - 1 ? lastCtx : ctx);
    out += node.attrs?.showIf == null ? html : guardHtml(node.attrs, `a "${node.type}" block`, html);
  });
  return out;
}

/** What the email adds around its content on a phone: the outer margins, the border, the padding. */
const phoneChrome = (s: DocSettings) => 2 * 8 + 2 + 2 * Math.min(s.padding, 20);

function headStyles(s: DocSettings, dark: DarkClasses): string {
  // Phone paddings from the width where the card (600 px and its border) no longer fits in the
  // desktop margins; columns stack only from where, with those paddings, they no longer fit
  // side by side (two 260 px columns still do at 600 px); social pills take the phone's even
  // rows from where a fourth one would not fit beside three (see nodes/social).
  const phoneAt = s.width + 2 * 12 + 2 - 1;
  const stackAt = s.width - 2 * s.padding + phoneChrome(s) - 1;
  const pillsAt = (PHONE_SLOTS + 1) * PILL_SLOT + phoneChrome(s) - 1;
  return [
    'body{margin:0;padding:0;width:100%!important;-webkit-text-size-adjust:100%;-ms-text-size-adjust:100%}',
    // Outlook for Windows adds space around tables unless told not to.
    'table{border-collapse:collapse;mso-table-lspace:0;mso-table-rspace:0}',
    'img{-ms-interpolation-mode:bicubic}',
    // iOS Mail turns dates and addresses into blue links; keep the author's colours.
    'a[x-apple-data-detectors]{color:inherit!important;text-decoration:none!important}',
    `@media only screen and (max-width:${phoneAt}px){`,
    '.sv-outer{padding:12px 8px!important}',
    `.sv-pad{padding:${Math.min(s.padding, 20)}px!important}`,
    '}',
    `@media only screen and (max-width:${stackAt}px){`,
    '.sv-col{display:block!important;max-width:100%!important;width:100%!important}',
    '.sv-gap{padding:0!important}',
    // stacked columns keep a gap between them, as side by side
    '.sv-gapv{padding:0 0 16px!important}',
    '}',
    `@media only screen and (max-width:${pillsAt}px){`,
    `.sv-s2{max-width:${2 * PILL_SLOT}px!important}`,
    `.sv-s3{max-width:${3 * PILL_SLOT}px!important}`,
    '}',
    // Dark mode where clients let us (Apple Mail, Outlook for Mac, iOS, some Android): the
    // author's dark colours. Gmail ignores it and Outlook for Windows never sees it.
    '@media (prefers-color-scheme:dark){',
    `.sv-bg{background-color:${s.darkBackdrop}!important}`,
    `.sv-card{background-color:${s.darkCanvas}!important;border-color:${s.darkBorder}!important}`,
    // light column panels would hold light text: a slightly lighter shade of the dark card instead
    `.sv-colbg{background-color:${darkSurface(s, true)}!important}`,
    `.sv-t{color:${DARK_TEXT}!important}`,
    `.sv-m{color:${DARK_MUTED}!important}`,
    // grey rules (dividers, the quote's bar) take the dark border colour, as light ones match the light border
    `.sv-hr,.sv-q{border-color:${s.darkBorder}!important}`,
    // pills as dark as the card (X, GitHub) get a visible edge
    `.sv-pe{border-color:${DARK_MUTED}!important}`,
    // explicit text colours (text colour marks, links), lightened to 4.5:1 on their dark surface
    ...dark.rules(),
    '.sv-light{display:none!important}',
    '.sv-dark{display:block!important;max-height:none!important;overflow:visible!important}',
    '}',
  ].join('');
}

// Outlook for Windows: 96 DPI so pixel sizes hold on high-DPI screens, and a font it has,
// since it falls back to Times New Roman on a stack starting with fonts it does not know
// (`center` is the label of the VML button, see primitives/mso.ts).
const MSO_HEAD =
  '<!--[if mso]><noscript><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml></noscript><style>table,td,p,a,li,h1,h2,h3,blockquote,span,center{font-family:Arial,Helvetica,sans-serif!important}p,li,h1,h2,h3,td{mso-line-height-rule:exactly}</style><![endif]-->';

// The preheader is followed by invisible joiners so the inbox preview does not run on into body text.
const PREHEADER_FILL = '&#8199;&#847;'.repeat(60);

function firstText(nodes: readonly JSONNode[] | undefined): string {
  for (const node of nodes ?? []) {
    if (node.type === 'text' && node.text?.trim()) return node.text.trim();
    const inner = firstText(node.content);
    if (inner) return inner;
  }
  return '';
}

/**
 * Renders a document's JSON (the shape of `getJSON()`) to a complete, email-client-safe HTML
 * document. Pure: no DOM, runs in Node. Throws `SEB_ERR_UNKNOWN_NODE` on node types it does not
 * know. Every text is escaped and every URL checked here, whatever the JSON holds. With
 * `syntax`, merge tags, conditions and repeats are written for that template engine.
 *
 * @example
 * renderEmail({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] })
 */
export function renderEmail(doc: JSONNode, options: RenderOptions = {}): string {
  if (doc?.type !== 'doc')
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: 'expected an object with type "doc"' });
  const { blocks, syntax, ...overrides } = options;
  const s = docSettings({ ...doc.attrs, ...overrides });
  const inner = s.width - 2 * s.padding;
  const dark = darkClasses();
  const set = renderSet(blocks);
  const body = renderBlocks(
    set,
    doc.content,
    blockContext({ settings: s, width: inner, listDepth: 0, panel: false, flushEnd: false, dark, set }),
  );
  const title = escapeHtml(s.title || firstText(doc.content).slice(0, 120) || 'Email');
  const lang = escapeHtml(s.lang);
  const changed = changedAttrs(DOC_ATTRS, cleanAttrs(DOC_ATTRS, doc.attrs));
  const marker = ` data-block="doc"${changed ? ` data-attrs="${escapeHtml(JSON.stringify(changed))}"` : ''}`;
  const preheader = s.preheader
    ? `<div style="display:none;font-size:1px;line-height:1px;max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all" data-sv-preheader="">${escapeHtml(s.preheader)}${PREHEADER_FILL}</div>`
    : '';
  const border = `border:1px solid ${s.border};border-radius:${s.radius}px`;
  const html =
    `<!DOCTYPE html><html lang="${lang}" dir="${s.dir}" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">` +
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    // Apple Mail: do not rescale; all: no auto-linking of numbers; declare dark-mode support.
    '<meta name="x-apple-disable-message-reformatting"><meta name="format-detection" content="telephone=no,date=no,address=no,email=no,url=no">' +
    '<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">' +
    `<title>${title}</title>${MSO_HEAD}<style>${headStyles(s, dark)}</style></head>` +
    `<body class="sv-bg" style="margin:0;padding:0;background-color:${s.backdrop}">` +
    `<div role="article" aria-roledescription="email" aria-label="${title}" lang="${lang}" dir="${s.dir}" class="sv-bg" style="background-color:${s.backdrop}"${marker}>` +
    preheader +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="sv-bg" bgcolor="${s.backdrop}" style="background-color:${s.backdrop}"><tr><td align="center" class="sv-outer" style="padding:24px 12px">` +
    // Outlook for Windows draws no rounded div: the card's colour goes on its ghost cell.
    `<!--[if mso]><table role="presentation" width="${s.width}" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td bgcolor="${s.canvas}"><![endif]-->` +
    // The card's colour is on the rounded div only, so no square table corner covers its
    // rounding, and nothing needs `overflow:hidden`, which would cut off whatever does not fit.
    `<div class="sv-card" style="max-width:${s.width}px;margin:0 auto;background-color:${s.canvas};${border}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>` +
    `<td class="sv-pad" dir="${s.dir}" style="padding:${s.padding}px;font-family:${FONT};text-align:${textSides(s.dir).start};${WRAP}">${body}</td>` +
    '</tr></table></div><!--[if mso]></td></tr></table><![endif]--></td></tr></table></div></body></html>';
  return inSyntax(html, syntax, 'html');
}

function textContext(set: RenderSet, depth: number): TextContext {
  const ctx: TextContext = {
    listDepth: depth,
    blocks: (nodes, d) => renderTextBlocks(set, nodes, textContext(set, d ?? depth)),
    inline: (nodes) => renderInlineText(set, nodes, ctx),
  };
  return ctx;
}

function renderTextBlocks(set: RenderSet, nodes: readonly JSONNode[] | undefined, ctx: TextContext): string {
  const parts: string[] = [];
  for (const node of nodes ?? []) {
    const def = set.byName.get(node.type);
    if (!def) throw new ServiceEditorError('SEB_ERR_UNKNOWN_NODE', { type: String(node.type) });
    const text = def.text(node, cleanAttrs(def.attrs, node.attrs), ctx);
    if (text !== '' || node.type === 'paragraph')
      parts.push(node.attrs?.showIf == null ? text : guardText(node.attrs, `a "${node.type}" block`, text));
  }
  return parts.join(ctx.listDepth > 0 ? '\n' : '\n\n');
}

/**
 * The plain-text alternative (`text/plain` part) of a document: paragraphs separated by blank
 * lines, lists with "-" or numbers, links and buttons followed by their URL, images by their alt.
 */
export function renderText(doc: JSONNode, options: BlockOptions & SyntaxOption = {}): string {
  if (doc?.type !== 'doc')
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', { reason: 'expected an object with type "doc"' });
  const set = renderSet(options.blocks);
  const text = `${renderTextBlocks(set, doc.content, textContext(set, 0))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
  return inSyntax(text, options.syntax, 'text');
}
