/**
 * The form controls of the block settings and the email settings, loaded when the first form
 * opens: many sessions never open one, so the first load of the editor does without them.
 */
import type * as Fields from './fields.js';

let loaded: typeof Fields | null = null;
let loading: Promise<typeof Fields> | null = null;

/** The controls, or `null` until they have loaded (see {@link whenFieldsLoad}). */
export function loadedFields(): typeof Fields | null {
  return loaded;
}

/**
 * Calls `then` once the controls have loaded (a few ms, the first time a form opens); a failed
 * load (a chunk the host did not serve) does nothing and is retried at the next form.
 */
export function whenFieldsLoad(then: () => void): void {
  loading ??= import('./fields.js').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  loading.then(then, () => {});
}
