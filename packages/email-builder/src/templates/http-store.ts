import { ServiceEditorError } from '../errors.js';
import type { JSONNode } from '../model/types.js';
import { checkTemplateName } from './check.js';
import type { SavedTemplate, TemplateStore, TemplateSummary } from './types.js';

/** Options of {@link HttpTemplateStore}. */
export interface HttpTemplateStoreOptions {
  /** The templates endpoint, e.g. `https://api.example.com/api/public/templates`. */
  url: string;
  /**
   * A key limited to the `templates` scope (`keys create --scope templates,images`), never the
   * account's full API key: browser code can be read by anyone who uses the page.
   */
  token: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

interface ErrorBody {
  code?: string;
  message?: string;
}
interface Envelope<T> {
  data: T | null;
  error: ErrorBody | null;
  status: number;
}

function fromEnvelope<T>(envelope: Envelope<T>, id = ''): T {
  if (envelope?.error || envelope?.data == null) {
    if (envelope?.error?.code === 'TEMPLATE_NOT_FOUND')
      throw new ServiceEditorError('SEB_ERR_TEMPLATE_NOT_FOUND', { id });
    throw new ServiceEditorError('SEB_ERR_TEMPLATE_STORE', {
      reason: `${envelope?.error?.code ?? 'error'}: ${envelope?.error?.message ?? 'no data'}`,
    });
  }
  return envelope.data;
}

/**
 * "My Templates" on the service (`/api/public/templates`, per account), authenticated with a
 * scoped key. Errors come back as `SEB_ERR_TEMPLATE_STORE` carrying the API's code and message,
 * or `SEB_ERR_TEMPLATE_NOT_FOUND`.
 *
 * @example
 * new ServiceEditor({ elementId: 'editor', templates: { store: new HttpTemplateStore({ url, token }) } });
 */
export class HttpTemplateStore implements TemplateStore {
  private readonly url: string;

  constructor(private readonly options: HttpTemplateStoreOptions) {
    if (!options || typeof options.url !== 'string' || !options.url)
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'url',
        reason: 'the templates endpoint URL is required',
      });
    if (typeof options.token !== 'string' || !options.token)
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'token',
        reason: 'a scoped API key is required',
      });
    this.url = options.url.replace(/\/+$/, '');
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const doFetch = this.options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(`${this.url}${path}`, {
        method,
        headers: {
          Authorization: this.options.token,
          Accept: 'application/json',
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ServiceEditorError('SEB_ERR_TEMPLATE_STORE', {
        reason: 'the templates service could not be reached',
      });
    }
    let json: unknown = null;
    try {
      json = await response.json();
    } catch {}
    if (!response.ok) {
      const error = (json as Envelope<unknown> | null)?.error;
      if (response.status === 404 && error?.code === 'TEMPLATE_NOT_FOUND')
        throw new ServiceEditorError('SEB_ERR_TEMPLATE_NOT_FOUND', { id: path.slice(1) });
      throw new ServiceEditorError('SEB_ERR_TEMPLATE_STORE', {
        reason: `${error?.code ?? `HTTP ${response.status}`}: ${error?.message ?? response.statusText}`,
      });
    }
    return json as T;
  }

  async list(): Promise<TemplateSummary[]> {
    const all: TemplateSummary[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: { templates: TemplateSummary[]; nextCursor: string | null } = fromEnvelope(
        await this.call('GET', query),
      );
      all.push(...page.templates);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }

  async get(id: string): Promise<SavedTemplate> {
    return fromEnvelope(await this.call<Envelope<SavedTemplate>>('GET', `/${encodeURIComponent(id)}`), id);
  }

  async create(name: string, document: JSONNode): Promise<SavedTemplate> {
    const [envelope] = await this.call<Envelope<SavedTemplate>[]>('POST', '', {
      templates: [{ name: checkTemplateName(name), document }],
    });
    return fromEnvelope(envelope!);
  }

  async update(id: string, changes: { name?: string; document?: JSONNode }): Promise<SavedTemplate> {
    const entry = {
      id,
      ...(changes.name !== undefined && { name: checkTemplateName(changes.name) }),
      ...(changes.document !== undefined && { document: changes.document }),
    };
    const [envelope] = await this.call<Envelope<SavedTemplate>[]>('PATCH', '', { templates: [entry] });
    return fromEnvelope(envelope!, id);
  }

  async remove(id: string): Promise<void> {
    const [envelope] = await this.call<Envelope<{ id: string; deleted: true }>[]>('DELETE', '', {
      ids: [id],
    });
    fromEnvelope(envelope!, id);
  }
}
