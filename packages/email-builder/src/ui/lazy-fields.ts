/**
 * The form controls of the block settings and the email settings, loaded when the first form
 * opens: many sessions never open one, so the first load of the editor does without them.
 */
import type * as Fields from './fields.js';

let loaded: typeof Fields | null = null;
let loading: Promise<typeof Fields> | null = null;

/** The controls, or `null` until {@link loadFields} has resolved. */
export function loadedFields(): typeof Fields | null {
  return loaded;
}

/** Loads the controls once; a failed load (a chunk the host did not serve) is retried next time. */
export function loadFields(): Promise<typeof Fields> {
  loading ??= import('./fields.js').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
