import type { GalleryTemplate } from '../types.js';

/**
 * The starter gallery shipped with the package (welcome, email verification, password reset,
 * receipt, shipping update, newsletter, product announcement, event invitation). Loaded on first
 * call with a dynamic `import()`: a separate chunk in the ESM build.
 *
 * @example
 * const [welcome] = await loadStarterTemplates();
 * editor.loadTemplate(welcome);
 */
export async function loadStarterTemplates(): Promise<readonly GalleryTemplate[]> {
  return (await import('./starter.js')).STARTER_TEMPLATES;
}
