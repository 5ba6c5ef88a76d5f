import type { TemplateOptions } from '../options.js';
import type { EditorTemplates, TemplateHost } from './templates.js';

/**
 * An editor's templates in its first load: {@link EditorTemplates} (the store and the picker)
 * loads the first time either is used, in its own chunk; a failed load is tried again at the
 * next use.
 */
export class TemplatesLoader {
  private loading: Promise<EditorTemplates> | null = null;
  private loaded: EditorTemplates | null = null;

  constructor(
    private readonly options: TemplateOptions | false | undefined,
    private readonly host: TemplateHost,
  ) {}

  /** The templates, once loaded. */
  get(): Promise<EditorTemplates> {
    this.loading ??= import('./templates.js').then(
      ({ EditorTemplates }) => (this.loaded = new EditorTemplates(this.options, this.host)),
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  /** Closes the picker if it is open. */
  close(): void {
    this.loaded?.close();
  }
}
