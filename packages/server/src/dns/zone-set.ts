/**
 * Several zones served by one responder, as one version: the development local DNS
 * (`local-dns.ts`) answers the customers' `.test` zones and the provider zone together. A
 * question goes to the deepest zone whose origin holds its name (RFC 1034 §4.3.2 step 2, the
 * zone "nearest ancestor"); a name in none of them is outside, answered REFUSED.
 */
import type { DkimZone } from './zone.js';

export class ZoneSet {
  private readonly byOrigin: ReadonlyMap<string, DkimZone>;

  constructor(zones: readonly DkimZone[]) {
    this.byOrigin = new Map(zones.map((zone) => [zone.origin, zone]));
  }

  /** The zone holding `qname` (any case, with or without the final dot), or `undefined`. */
  find(qname: string): DkimZone | undefined {
    const labels = qname.toLowerCase().replace(/\.$/, '').split('.');
    for (let i = 0; i < labels.length; i++) {
      const zone = this.byOrigin.get(labels.slice(i).join('.'));
      if (zone !== undefined) return zone;
    }
    return undefined;
  }

  /** The origins served, in no particular order. */
  origins(): string[] {
    return [...this.byOrigin.keys()];
  }
}

/** What a responder answers from: one zone, or a set of them. */
export type ServedZones = DkimZone | ZoneSet;
