/**
 * The list of domain cards, sorted by name. Each refresh reuses the card of every domain still
 * listed and patches it, adds cards for new domains and removes those of domains gone: nothing
 * is rebuilt, so focus, selection, scroll position and the open panel survive.
 */
import type { DomainResult } from '@service/client';
import { type CardActions, DomainCard } from './domain-card.js';
import { placeInOrder } from './patch.js';

/** The cards of the listed domains, kept in step with the page's state by `show`. */
export class DomainList {
  private readonly cards = new Map<string, DomainCard>();

  constructor(
    private readonly container: HTMLElement,
    private readonly actions: CardActions,
  ) {}

  /** Shows `domains`, sorted by name, with only `open`'s records open. */
  show(domains: Iterable<DomainResult>, open: string | undefined): void {
    const sorted = [...domains].sort((a, b) => a.domain.localeCompare(b.domain));
    const listed = new Set(sorted.map((d) => d.domain));
    for (const name of this.cards.keys()) if (!listed.has(name)) this.cards.delete(name);
    for (const domain of sorted) {
      let card = this.cards.get(domain.domain);
      if (!card) {
        card = new DomainCard(domain, this.actions);
        this.cards.set(domain.domain, card);
      }
      card.update(domain, domain.domain === open);
    }
    placeInOrder(
      this.container,
      sorted.map((d) => this.cards.get(d.domain)!.element),
    );
  }

  /** The card of `name`, if it is listed. */
  card(name: string): DomainCard | undefined {
    return this.cards.get(name);
  }

  /** Outlines the cards of `names` (just registered), and no others. */
  highlight(names: string[]): void {
    for (const [name, card] of this.cards) card.highlight(names.includes(name));
  }

  /** Refreshes every card's "checked … ago". */
  tick(): void {
    for (const card of this.cards.values()) card.tick();
  }

  /** Empties the list (the key was forgotten). */
  clear(): void {
    this.cards.clear();
    this.container.replaceChildren();
  }
}
