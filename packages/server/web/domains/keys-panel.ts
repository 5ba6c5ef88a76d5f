/**
 * The dashboard's API keys section (issue 40): the account's keys (name, prefix, what they
 * reach, when made, revoked or not), a form that makes one (full access, sending only, sending
 * from one domain for a platform's customer, or templates and images for a web page such as
 * the playground) whose key is then shown once with a copy
 * button, and Revoke behind the page's confirmation dialog. The key this page uses cannot be
 * revoked here (the API refuses it): it says so instead of offering the button.
 */
import type { ApiKey, ServiceClient } from '@service/client';
import { copyToClipboard, el } from '../lib/dom.js';
import { confirmDelete, type DeleteWording } from './confirm-delete.js';
import { placeInOrder, setText } from './patch.js';
import { shortTime } from './webhook-deliveries.js';

const REVOKE_KEY: DeleteWording = {
  verb: 'Revoke',
  consequence: 'Every request made with it is refused from now on, on every server. This cannot be undone.',
  confirm: 'Revoke key',
};

export interface KeysHost {
  client(): ServiceClient | undefined;
  /** The prefix of the key this page uses, to tell it apart. */
  ownPrefix(): string | undefined;
}

function reach(key: ApiKey): string {
  if (key.scopes.includes('*')) return 'full access';
  if (key.domains) return `sends from ${key.domains.join(', ')} only`;
  if (key.scopes.join() === 'sending') return 'sending only';
  return `${key.scopes.join(' and ')} only (for a web page)`;
}

export class KeysPanel {
  private keys: ApiKey[] = [];
  private readonly rows = new Map<
    string,
    { element: HTMLLIElement; state: HTMLElement; revoke: HTMLButtonElement }
  >();
  private readonly title = el('h2', { id: 'keys-title', textContent: 'API keys', tabIndex: -1 });
  private readonly list = el('ul', { className: 'capture-list', id: 'key-list' });
  private readonly notice = el('p', { id: 'keys-notice', className: 'banner info', role: 'status' });
  private readonly secret = el('div', { className: 'secret-box', id: 'new-key', role: 'region' });
  private readonly name = el('input', {
    id: 'new-key-name',
    type: 'text',
    className: 'grow',
    required: true,
    maxLength: 200,
  });
  private readonly scope = el('select', { id: 'new-key-scope' });
  /** For a key that sends from one domain: which (the API checks it is the account's). */
  private readonly domain = el('input', {
    id: 'new-key-domain',
    type: 'text',
    placeholder: 'mail.customer.example',
    maxLength: 253,
    autocomplete: 'off',
  });
  private readonly domainField = el(
    'span',
    { className: 'row' },
    el('label', { htmlFor: 'new-key-domain', textContent: 'Domain' }),
    this.domain,
  );
  private readonly create = el('button', { type: 'submit', className: 'primary', textContent: 'Create key' });

  constructor(
    section: HTMLElement,
    private readonly host: KeysHost,
  ) {
    section.setAttribute('aria-labelledby', this.title.id);
    this.secret.hidden = true;
    this.secret.setAttribute('aria-labelledby', 'new-key-title');
    this.scope.append(
      el('option', { value: '*', textContent: 'Full access' }),
      el('option', { value: 'sending', textContent: 'Sending only' }),
      el('option', { value: 'domain', textContent: 'Sending from one domain (for a customer)' }),
      el('option', { value: 'templates,images', textContent: 'Templates and images (for a web page)' }),
    );
    this.domainField.hidden = true;
    this.scope.addEventListener('change', () => {
      this.domainField.hidden = this.scope.value !== 'domain';
      this.domain.required = this.scope.value === 'domain';
    });
    const form = el(
      'form',
      { className: 'row sandbox-form' },
      el('label', { htmlFor: this.name.id, textContent: 'Name' }),
      this.name,
      el('label', { htmlFor: this.scope.id, textContent: 'Reach' }),
      this.scope,
      this.domainField,
      this.create,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.add();
    });
    section.replaceChildren(
      this.title,
      el('p', {
        className: 'hint',
        textContent:
          'One key per app or environment, so one can be revoked without stopping the others. A page in a browser (the playground, your editor) gets a templates-and-images key, never a full one. A customer of your platform gets a key that sends from their domain only and reads only its mail.',
      }),
      this.notice,
      this.secret,
      this.list,
      form,
    );
  }

  async load(client: ServiceClient): Promise<void> {
    const keys = await client.listApiKeys();
    if (this.host.client() !== client) return;
    // live keys first, newest first; revoked ones after
    this.keys = keys.sort(
      (a, b) =>
        Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt.localeCompare(a.createdAt),
    );
    this.render();
  }

  clear(): void {
    this.keys = [];
    this.rows.clear();
    this.list.replaceChildren();
    this.secret.replaceChildren();
    this.secret.hidden = true;
    setText(this.notice, '');
  }

  private render(): void {
    const listed = new Set(this.keys.map((k) => k.id));
    for (const id of this.rows.keys()) if (!listed.has(id)) this.rows.delete(id);
    for (const key of this.keys) {
      let row = this.rows.get(key.id);
      if (!row) {
        row = this.row(key);
        this.rows.set(key.id, row);
      }
      const own = key.prefix === this.host.ownPrefix();
      setText(
        row.state,
        key.revokedAt ? `revoked ${shortTime(key.revokedAt)}` : own ? 'this page’s key' : 'live',
      );
      row.state.className = `badge ${key.revokedAt ? 'failed' : 'delivered'}`;
      row.revoke.hidden = key.revokedAt !== null || own;
    }
    placeInOrder(
      this.list,
      this.keys.map((k) => this.rows.get(k.id)!.element),
    );
  }

  private row(key: ApiKey) {
    const state = el('span');
    const revoke = el('button', { type: 'button', className: 'small danger', textContent: 'Revoke' });
    revoke.setAttribute('aria-label', `Revoke the key ${key.name}`);
    revoke.addEventListener('click', () => void this.revoke(key, revoke));
    const element = el(
      'li',
      { className: 'capture', dataset: { id: key.id } },
      el(
        'div',
        { className: 'capture-head' },
        el('span', { className: 'capture-subject', textContent: key.name }),
        el('code', { textContent: `${key.prefix}…` }),
        state,
        el('span', {
          className: 'webhook-meta',
          textContent: `${reach(key)} · made ${shortTime(key.createdAt)}`,
        }),
        el('span', { className: 'webhook-actions' }, revoke),
      ),
    );
    return { element, state, revoke };
  }

  private async add(): Promise<void> {
    const client = this.host.client();
    if (!client || this.create.getAttribute('aria-disabled') === 'true') return;
    this.create.setAttribute('aria-disabled', 'true');
    try {
      const created = await client.createApiKey(
        this.scope.value === 'domain'
          ? { name: this.name.value, domains: [this.domain.value] }
          : { name: this.name.value, scopes: this.scope.value.split(',') as ApiKey['scopes'] },
      );
      this.name.value = '';
      this.domain.value = '';
      this.keys.unshift(created);
      this.render();
      this.showSecret(created.name, created.key);
    } catch (error) {
      setText(this.notice, `Not created: ${(error as Error).message}`);
    } finally {
      this.create.removeAttribute('aria-disabled');
    }
  }

  /** The new key, the only time the API tells it; it stays until dismissed. */
  private showSecret(name: string, key: string): void {
    const copy = el('button', { type: 'button', className: 'small primary', textContent: 'Copy key' });
    copy.addEventListener('click', () => void copyToClipboard(key, copy));
    const done = el('button', { type: 'button', className: 'small', textContent: 'I have stored it' });
    done.addEventListener('click', () => {
      this.secret.replaceChildren();
      this.secret.hidden = true;
      setText(this.notice, '');
      this.title.focus();
    });
    this.secret.replaceChildren(
      el('h3', { id: 'new-key-title', textContent: `The new key “${name}”` }),
      el('code', { className: 'secret-value', textContent: key }),
      el(
        'p',
        { className: 'secret-warning' },
        el('strong', { textContent: 'Shown only once. ' }),
        'Copy it now into your app’s settings. It cannot be shown again: if it is lost, revoke it and make another.',
      ),
      el('div', { className: 'row' }, copy, done),
    );
    this.secret.hidden = false;
    setText(this.notice, `Created “${name}”. Copy the key now: it is shown only once.`);
    copy.focus();
  }

  private async revoke(key: ApiKey, button: HTMLButtonElement): Promise<void> {
    const client = this.host.client();
    if (!client || !(await confirmDelete(key.name, button, REVOKE_KEY))) return;
    try {
      const revoked = await client.revokeApiKey(key.id);
      this.keys = this.keys.map((k) => (k.id === key.id ? revoked : k));
      this.render();
      setText(this.notice, `Revoked “${key.name}”: it no longer works anywhere.`);
    } catch (error) {
      setText(this.notice, `Not revoked: ${(error as Error).message}`);
    }
    this.title.focus();
  }
}
