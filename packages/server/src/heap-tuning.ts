/**
 * V8 settings for the service's process, set before any other module of it runs: `main.ts`
 * imports this module first.
 *
 * Allocation-site pretenuring is off. With it on, V8 sometimes decided, early in a process's
 * life, to allocate the objects of some allocation site straight into the old generation; from
 * then on the status polls' short-lived objects were kept alive through the young generation's
 * collections, promoted, and freed only by full collections. Such a process answered about a
 * third fewer polls for the rest of its life (5-s loads: 7 full collections instead of 2,
 * scavenges of 7 ms instead of 0.8). It happened in 11 of 31 measured starts; with pretenuring
 * off, in none of 35, and the starts it had spared answered as many polls as before. The cost:
 * objects built to last are copied through the young generation first; a start-up with 1M
 * domains took a second longer (23.5–24.0 s against 22.5–22.9 s). Figures in
 * docs/decisions.md, "Status polling speed".
 */
import v8 from 'node:v8';

v8.setFlagsFromString('--no-allocation-site-pretenuring');
