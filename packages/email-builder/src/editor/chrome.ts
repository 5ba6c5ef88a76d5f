import type { MessageTexts } from '../i18n/translate.js';
import type { EditorHost } from '../nodes/define.js';
import { VARIABLE_TRIGGER, type VariableOption } from '../nodes/variable/index.js';
import type { ServiceEditorOptions } from '../options.js';
import type { BlockSet } from '../registry/block-set.js';
import { BlockHandle } from '../ui/block-handle.js';
import { BubbleMenu } from '../ui/bubble-menu.js';
import type { FieldHost } from '../ui/fields.js';
import { Inspector } from '../ui/inspector.js';
import { loadedUi } from '../ui/lazy-ui.js';
import { LinkHover } from '../ui/link-hover.js';
import { type ColorScheme, SchemeMenu } from '../ui/scheme-menu.js';
import { SettingsPanel } from '../ui/settings-panel.js';
import { filterItems, SlashMenu } from '../ui/slash-menu.js';
import { createToolbar } from '../ui/toolbar.js';

/** What the chrome's controls do in the editor. */
export interface ChromeActions {
  undo(): void;
  redo(): void;
  openTemplates(): void;
  preview(): void;
  chooseScheme(scheme: ColorScheme): void;
  /** the colour scheme shown */
  shownScheme(): 'light' | 'dark';
  /** the editor as blocks' commands see it */
  host(): EditorHost;
}

/**
 * The editor's chrome: the toolbar, the colour scheme menu, the email settings, the "/" and
 * "{{" menus, the formatting bubble, the link card, the blocks' handles and their settings.
 * Each is a trip wire in the first load (see `ui/lazy-ui.ts`); their plugins join the editor's.
 */
export class EditorChrome {
  readonly toolbar: HTMLElement;
  readonly schemeMenu: SchemeMenu;
  readonly settings: SettingsPanel | null;
  readonly slash: SlashMenu;
  readonly variableMenu: SlashMenu;
  readonly bubble: BubbleMenu;
  readonly linkHover: LinkHover;
  readonly handle: BlockHandle;
  readonly inspector: Inspector;
  /**
   * The chrome's words in the `locale` option's language, once loaded (see `i18n/`): the first
   * load reads the few it draws itself (the placeholder, the slash search); the rest use `t`.
   */
  words: MessageTexts = {};

  constructor(
    root: HTMLElement,
    o: ServiceEditorOptions,
    set: BlockSet,
    variables: readonly VariableOption[],
    fieldHost: FieldHost,
    actions: ChromeActions,
  ) {
    this.schemeMenu = new SchemeMenu(root, (scheme) => actions.chooseScheme(scheme));
    const toolbar = createToolbar({
      undo: () => actions.undo(),
      redo: () => actions.redo(),
      templates: o.templates === false ? null : () => actions.openTemplates(),
      preview: o.preview === false ? null : () => actions.preview(),
      schemeButton: this.schemeMenu.button,
      settings:
        o.settingsControl || o.background
          ? {
              label: o.settingsControl ? 'Email settings' : 'Email background',
              // the email settings and a block's settings never show together
              toggle: () => {
                this.inspector.dismiss();
                this.settings?.toggle();
              },
            }
          : null,
    });
    this.toolbar = toolbar;
    this.settings =
      o.settingsControl || o.background
        ? new SettingsPanel(root, !!o.settingsControl, () => actions.shownScheme(), fieldHost)
        : null;
    const blockItems = set.blocks.flatMap((b) => b.slash ?? []);
    // the host's variables join the blocks only when the query finds them ("/first" gives
    // First name), so they never crowd the list of blocks; those at the caret, loaded with the
    // menu (the editing UI loads at the first "/" or "{{")
    this.slash = new SlashMenu(
      root,
      // found by their title in the editor's language, and by their English one
      (q, state) =>
        filterItems(
          (q
            ? [...blockItems, ...(loadedUi()?.scopedVariableItems(variables, state.selection.$from) ?? [])]
            : blockItems
          ).map((i) => ({
            ...i,
            keywords: [...i.keywords, this.words[i.title] ?? ''],
          })),
          q,
        ),
      () => actions.host(),
      { header: toolbar },
    );
    this.variableMenu = new SlashMenu(
      root,
      (q, state) => loadedUi()?.variableItems(variables, q, state.selection.$from, root) ?? [],
      () => actions.host(),
      { pattern: VARIABLE_TRIGGER, label: 'Insert variable', header: toolbar },
    );
    this.bubble = new BubbleMenu(root, toolbar);
    this.linkHover = new LinkHover(root, toolbar, () => this.bubble.openLink());
    this.handle = new BlockHandle(root, (node) => !!set.byName.get(node.type.name)?.inspect);
    this.inspector = new Inspector(root, set.byName, fieldHost, toolbar, () => this.settings?.hide());
  }

  /**
   * Loads the chrome's words when they are not English (or the host has its own): English
   * meanwhile, then what was drawn in English is drawn again (see `i18n/locales.ts`), and
   * `redraw` draws the editor's own words again.
   */
  loadWords(
    root: HTMLElement,
    locale: string | undefined,
    messages: MessageTexts | undefined,
    redraw: () => void,
  ): void {
    if (!locale && !messages) return;
    import('../i18n/locales.js')
      .then(({ useLocale }) => useLocale(root, locale, messages))
      .then((texts) => {
        if (!texts) return;
        this.words = texts;
        redraw();
      }, console.error);
  }
}
