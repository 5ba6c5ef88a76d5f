import { ServiceEditorError } from '../errors.js';
import { checkTemplateDocument, checkTemplateName } from './check.js';
import { loadStarterTemplates } from './gallery/index.js';
import type { GalleryTemplate, TemplateSource } from './types.js';

function sourceError(reason: string): ServiceEditorError {
  return new ServiceEditorError('SEB_ERR_TEMPLATE_SOURCE', { reason });
}

/**
 * Resolves a "Purchased Templates" source to checked templates: the starter gallery by default,
 * a list, a function, or the URL of a JSON array. A template with an unknown block or a bad name
 * fails the whole source with `SEB_ERR_TEMPLATE_SOURCE` naming it, rather than vanishing.
 */
export async function resolveTemplateSource(source?: TemplateSource | null): Promise<GalleryTemplate[]> {
  let list: unknown;
  try {
    if (source === undefined || source === null) list = await loadStarterTemplates();
    else if (typeof source === 'string') {
      const response = await fetch(source, { headers: { Accept: 'application/json' } });
      if (!response.ok) throw sourceError(`${source} answered ${response.status}`);
      list = await response.json();
    } else list = typeof source === 'function' ? await source() : source;
  } catch (error) {
    throw error instanceof ServiceEditorError
      ? error
      : sourceError(String((error as Error)?.message ?? error));
  }
  if (!Array.isArray(list)) throw sourceError('expected an array of templates');
  return list.map((item: GalleryTemplate, i) => {
    const where = `template ${i + 1}${typeof item?.name === 'string' ? ` ("${item.name}")` : ''}`;
    try {
      return {
        id: typeof item.id === 'string' && item.id ? item.id : `template-${i + 1}`,
        name: checkTemplateName(item.name),
        ...(typeof item.description === 'string' && { description: item.description }),
        ...(typeof item.category === 'string' && { category: item.category }),
        document: checkTemplateDocument(item.document),
      };
    } catch (error) {
      throw sourceError(`${where}: ${(error as Error).message}`);
    }
  });
}
