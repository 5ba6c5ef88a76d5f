import { ServiceEditorError } from '../errors.js';

/**
 * The listeners of an editor's events (see `EditorEvents`), by event name. A listener that
 * throws is logged and the others still run: a host listener's bug must not break editing.
 */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** @param names the events there are: listening to another throws `SEB_ERR_OPTIONS` */
  constructor(private readonly names: readonly (keyof Events)[]) {}

  /** Adds a listener; returns a function that removes it. */
  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    if (!this.names.includes(event))
      throw new ServiceEditorError('SEB_ERR_OPTIONS', {
        name: 'event',
        reason: `unknown event "${String(event)}"`,
      });
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => this.off(event, listener);
  }

  /** Removes a listener added with {@link Emitter.on}. */
  off<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): void {
    this.listeners.get(event)?.delete(listener as (payload: never) => void);
  }

  /** Calls every listener of `event` with `payload`, in the order they were added. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: Events[E]) => void)(payload);
      } catch (error) {
        console.error(error);
      }
    }
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
