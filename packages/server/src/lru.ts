/** A Map kept in order of use, dropping the least recently used entry past `max`. */
export class Lru<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
}
