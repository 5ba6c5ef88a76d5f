/**
 * The editing UI the first paint does without ({@link EditingUi}: the settings forms, the
 * formatting bubble and link prompt, the link card, the blocks' handles and menus, the colour
 * scheme choices), loaded as one chunk the first time any of it is needed. Most of it is needed
 * soon, but none of it before the email shows, and one chunk rather than one per piece keeps
 * the first load in few files (each file a bundler shares between the first load and a lazy
 * chunk is fetched and compressed on its own).
 */
import type * as EditingUi from './editing-ui.js';

let loaded: typeof EditingUi | null = null;
let loading: Promise<typeof EditingUi> | null = null;

/** The editing UI, or `null` until it has loaded (see {@link whenUiLoads}). */
export function loadedUi(): typeof EditingUi | null {
  return loaded;
}

/**
 * Calls `then` with the editing UI once it has loaded (a few ms, the first time); a failed load
 * (a chunk the host did not serve) does nothing and is retried at the next call.
 */
export function whenUiLoads(then: (ui: typeof EditingUi) => void): void {
  if (loaded) {
    then(loaded);
    return;
  }
  loading ??= import('./editing-ui.js').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  loading.then(then, () => {});
}
