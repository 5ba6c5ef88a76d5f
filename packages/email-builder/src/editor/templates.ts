import { ServiceEditorError } from '../errors.js';
import type { JSONNode } from '../model/types.js';
import type { TemplateOptions } from '../options.js';
import type { TemplateTab } from '../templates/picker.js';
import type { TemplateStore } from '../templates/types.js';

/** What the editor lends its template picker. */
export interface TemplateHost {
  /** the current email, to save */
  current(): JSONNode;
  /** loads a chosen template (branded) into the editor */
  load(doc: JSONNode): void;
  /** a template's email as the picker previews it (branded) */
  render(doc: JSONNode): string;
  /** the colour scheme shown */
  theme(): 'light' | 'dark';
  /** whether the editor was destroyed meanwhile */
  destroyed(): boolean;
  /** where the picker goes (the editor's root) */
  where: HTMLElement;
}

/**
 * An editor's templates: its "My Templates" store (the `templates.store` option, the service's
 * API for `{ url, token }`, or browser storage) and its template picker, both loaded on first
 * use (they live in the templates chunk).
 */
export class EditorTemplates {
  private store: Promise<TemplateStore> | null = null;
  private picker: { close(): void } | null = null;

  constructor(
    private readonly options: TemplateOptions | false | undefined,
    private readonly host: TemplateHost,
  ) {}

  /** The store, loaded once. */
  getStore(): Promise<TemplateStore> {
    this.store ??= (async () => {
      const given = this.options ? this.options.store : undefined;
      if (given && typeof (given as TemplateStore).list === 'function') return given as TemplateStore;
      const { LocalTemplateStore, HttpTemplateStore } = await import('../templates/stores.js');
      return given
        ? new HttpTemplateStore(given as { url: string; token: string })
        : new LocalTemplateStore();
    })();
    return this.store;
  }

  /** Opens the picker on `tab`, closing one already open; throws `SEB_ERR_OPTIONS` on another tab. */
  async open(tab: TemplateTab): Promise<void> {
    if (tab !== 'mine' && tab !== 'purchased')
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'tab',
        reason: 'expected "mine" or "purchased"',
      });
    const [{ openTemplatePicker }, store] = await Promise.all([
      import('../templates/picker.js'),
      this.getStore(),
    ]);
    const host = this.host;
    if (host.destroyed()) return;
    this.picker?.close();
    this.picker = openTemplatePicker(
      {
        store,
        source: this.options ? this.options.purchased : undefined,
        current: () => host.current(),
        load: (doc) => host.load(doc),
        render: (doc) => host.render(doc),
        theme: host.theme(),
        onClose: () => (this.picker = null),
        where: host.where,
      },
      tab,
    );
  }

  /** Closes the picker if open. */
  close(): void {
    this.picker?.close();
  }
}
