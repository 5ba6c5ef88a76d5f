import { ERRORS, ServiceEditorError } from '../errors.js';
import { localize } from '../i18n/localize.js';
import { catalogueOf, type MessageParams, t } from '../i18n/translate.js';
import type { JSONNode } from '../model/types.js';
import { h, uid } from '../ui/dom.js';
import { Modal } from '../ui/modal.js';
import { resolveTemplateSource } from './source.js';
import type { TemplateSource, TemplateStore, TemplateSummary } from './types.js';

/** Which tab of the picker. */
export type TemplateTab = 'mine' | 'purchased';

/** What the picker needs from the editor. */
export interface PickerContext {
  store: TemplateStore;
  source: TemplateSource | null | undefined;
  /** The document being edited (saved by "Save"). */
  current(): JSONNode;
  /** Loads a template into the editor (branding applied there). */
  load(document: JSONNode): void;
  /** A template's email HTML with the branding applied, for thumbnails. */
  render(document: JSONNode): string;
  theme: 'light' | 'dark';
  onClose(): void;
  /** An element of the editor: the picker speaks its language. */
  where: Element;
}

function formatDate(iso: string, locale: string | undefined): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The template picker: a modal with the spec's two tabs (ARIA tabs pattern). "My Templates"
 * saves the current email, lists, renames, loads and deletes saved templates through the store;
 * "Purchased Templates" shows the gallery with live thumbnails. Loaded on demand.
 */
export function openTemplatePicker(ctx: PickerContext, tab: TemplateTab = 'mine'): { close(): void } {
  const modal = new Modal({
    title: 'Templates',
    closeLabel: 'Close templates',
    className: 'sv-templates',
    closeOnOverlayClick: true,
    onRequestClose: () => close(),
  });
  modal.overlay.dataset.theme = ctx.theme;
  // the editor's language: its words, direction, and dates (else the browser's, as before)
  const words = catalogueOf(ctx.where);
  if (words) {
    modal.overlay.lang = words.locale;
    modal.overlay.dir = (ctx.where.closest('[dir]') as HTMLElement | null)?.dir ?? 'ltr';
    localize(modal.overlay, words);
  }
  const tr = (key: string, params?: MessageParams) => t(words, key, params);
  const message = (error: unknown) =>
    error instanceof ServiceEditorError
      ? tr(ERRORS[error.code], error.details)
      : String((error as Error)?.message ?? error);
  const close = () => {
    if (!modal.isOpen) return;
    modal.close();
    ctx.onClose();
  };

  const tabs: Record<TemplateTab, { tab: HTMLButtonElement; panel: HTMLElement }> = {} as never;
  const tablist = h('div', { class: 'sv-tabs', role: 'tablist', 'aria-label': 'Template sources' });
  const select = (which: TemplateTab, focus = false) => {
    for (const [key, t] of Object.entries(tabs) as [TemplateTab, (typeof tabs)[TemplateTab]][]) {
      const on = key === which;
      t.tab.setAttribute('aria-selected', String(on));
      t.tab.tabIndex = on ? 0 : -1;
      t.panel.hidden = !on;
    }
    if (focus) tabs[which].tab.focus();
    if (which === 'purchased') loadGallery();
  };
  for (const [key, title] of [
    ['mine', 'My Templates'],
    ['purchased', 'Purchased Templates'],
  ] as const) {
    const tabId = uid('sv-tab');
    const panelId = uid('sv-tabpanel');
    const button = h(
      'button',
      { type: 'button', role: 'tab', id: tabId, class: 'sv-tab', 'aria-controls': panelId, 'data-tab': key },
      title,
    );
    button.addEventListener('click', () => select(key));
    button.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft' || e.key === 'Home' || e.key === 'End') {
        e.preventDefault();
        select(key === 'mine' ? 'purchased' : 'mine', true);
      }
    });
    tablist.append(button);
    tabs[key] = {
      tab: button,
      panel: h('section', { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'sv-tabpanel' }),
    };
  }

  // My Templates
  const status = h('p', { class: 'sv-tpl-status', role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'sv-tpl-list', 'aria-label': 'Saved templates' });
  const nameId = uid('sv-tpl-name');
  const nameInput = h('input', {
    id: nameId,
    class: 'sv-input',
    type: 'text',
    maxlength: 200,
    placeholder: 'e.g. Monthly update',
    required: true,
  });
  const form = h(
    'form',
    { class: 'sv-tpl-save' },
    h('label', { for: nameId, class: 'sv-label' }, 'Save the current email as a template'),
    h(
      'div',
      { class: 'sv-row' },
      nameInput,
      h('button', { type: 'submit', class: 'sv-btn sv-btn-primary' }, 'Save template'),
    ),
  );
  const say = (text: string, error = false) => {
    status.textContent = text;
    status.classList.toggle('sv-error', error);
  };
  const attempt = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) say(done);
      return true;
    } catch (error) {
      say(message(error), true);
      return false;
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      say('Give the template a name first.', true);
      nameInput.focus();
      return;
    }
    void attempt(
      async () => {
        await ctx.store.create(name, ctx.current());
        nameInput.value = '';
        await refresh();
      },
      tr('Saved “{name}”.', { name }),
    );
  });

  const item = (summary: TemplateSummary): HTMLElement => {
    const li = h('li', { class: 'sv-tpl-item', 'data-id': summary.id });
    const show = () => {
      const updated = formatDate(summary.updatedAt, words?.locale);
      li.replaceChildren(
        h(
          'div',
          { class: 'sv-tpl-meta' },
          h('strong', {}, summary.name),
          updated ? h('small', {}, tr('Updated {date}', { date: updated })) : null,
        ),
        action('Use', tr('Use template {name}', { name: summary.name }), async () => {
          const template = await ctx.store.get(summary.id);
          close();
          ctx.load(template.document);
        }),
        action('Rename', tr('Rename template {name}', { name: summary.name }), async () => rename()),
        action('Delete', tr('Delete template {name}', { name: summary.name }), async () => confirmDelete()),
      );
    };
    const action = (text: string, label: string, run: () => Promise<void>, primary = false) => {
      const b = h(
        'button',
        { type: 'button', class: primary ? 'sv-btn sv-btn-primary' : 'sv-btn', 'aria-label': label },
        text,
      );
      b.addEventListener('click', () => void attempt(run));
      return b;
    };
    const rename = () => {
      const id = uid('sv-rename');
      const input = h('input', {
        id,
        class: 'sv-input',
        type: 'text',
        maxlength: 200,
        'data-own-escape': '',
      });
      input.value = summary.name;
      const save = async () => {
        const renamed = await ctx.store.update(summary.id, { name: input.value });
        summary = renamed;
        show();
        say(tr('Renamed to “{name}”.', { name: renamed.name }));
        li.querySelectorAll<HTMLElement>('button')[1]?.focus();
      };
      input.addEventListener('keydown', (e) => {
        // preventDefault: the Enter must not also "click" the button that gets focus next
        if (e.key === 'Enter') {
          e.preventDefault();
          void attempt(save);
        }
        if (e.key === 'Escape') {
          e.preventDefault();
          show();
        }
      });
      li.replaceChildren(
        h(
          'label',
          { for: id, class: 'sv-visually-hidden' },
          tr('New name for {name}', { name: summary.name }),
        ),
        input,
        action('Save', 'Save the new name', save, true),
        action('Cancel', 'Cancel renaming', async () => show()),
      );
      input.focus();
      input.select();
    };
    const confirmDelete = () => {
      li.replaceChildren(
        h(
          'div',
          { class: 'sv-tpl-meta' },
          h('strong', {}, tr('Delete “{name}”?', { name: summary.name })),
          h('small', {}, 'This cannot be undone.'),
        ),
        action(
          'Delete',
          tr('Confirm: delete template {name}', { name: summary.name }),
          async () => {
            await ctx.store.remove(summary.id);
            await refresh();
            say(tr('Deleted “{name}”.', { name: summary.name }));
            nameInput.focus();
          },
          true,
        ),
        action('Cancel', 'Keep the template', async () => show()),
      );
      li.querySelector<HTMLElement>('button')?.focus();
    };
    show();
    return li;
  };

  const refresh = async () => {
    const saved = await ctx.store.list();
    list.replaceChildren(
      ...(saved.length
        ? saved.map(item)
        : [
            h('li', { class: 'sv-tpl-empty' }, 'No saved templates yet: save the current email to reuse it.'),
          ]),
    );
  };
  tabs.mine.panel.append(form, status, list);
  list.append(h('li', { class: 'sv-tpl-empty' }, 'Loading…'));
  void attempt(refresh);

  // Purchased Templates
  let galleryLoaded = false;
  const grid = h('ul', { class: 'sv-tpl-grid', 'aria-label': 'Purchased templates' });
  const galleryStatus = h('p', { class: 'sv-tpl-status', role: 'status', 'aria-live': 'polite' }, 'Loading…');
  tabs.purchased.panel.append(galleryStatus, grid);
  const loadGallery = () => {
    if (galleryLoaded) return;
    galleryLoaded = true;
    resolveTemplateSource(ctx.source).then(
      (templates) => {
        galleryStatus.textContent = templates.length ? '' : 'No templates available.';
        grid.replaceChildren(
          ...templates.map((tpl) => {
            const use = h(
              'button',
              {
                type: 'button',
                class: 'sv-btn sv-btn-primary',
                'aria-label': tr('Use template {name}', { name: tpl.name }),
              },
              'Use template',
            );
            use.addEventListener('click', () => {
              close();
              ctx.load(tpl.document);
            });
            const frame = h('iframe', {
              sandbox: '',
              tabindex: '-1',
              'aria-hidden': 'true',
              title: tr('{name} preview', { name: tpl.name }),
              loading: 'lazy',
            });
            frame.srcdoc = ctx.render(tpl.document);
            return h(
              'li',
              { class: 'sv-tpl-card', 'data-id': tpl.id },
              h('div', { class: 'sv-tpl-thumb' }, frame),
              h(
                'div',
                { class: 'sv-tpl-info' },
                h('h3', {}, tpl.name),
                tpl.description ? h('p', { class: 'sv-tpl-desc' }, tpl.description) : null,
                use,
              ),
            );
          }),
        );
      },
      (error) => {
        galleryLoaded = false;
        galleryStatus.textContent = message(error);
        galleryStatus.classList.add('sv-error');
      },
    );
  };

  modal.body.append(tablist, tabs.mine.panel, tabs.purchased.panel);
  select(tab);
  modal.open(tabs[tab].tab);
  return { close };
}
