/**
 * Loopback addresses for test servers that need a well-known port of their own (BIND on 53,
 * Postfix on 25 and 587), each claimed by one test process at a time.
 *
 * They come from one pool, which the test runner puts on `lo` before the first test file starts
 * and takes off after the last (scripts/test.mjs): Chromium watches the machine's addresses over
 * netlink and, when any of them changes, `lo`'s included, aborts the requests it has in flight
 * with `net::ERR_NETWORK_CHANGED`. A DNS or mail test adding its address beside a browser test
 * made that test's page lose a script now and then (measured: 11 of 872 fetches from a page
 * failed while one address was added and removed ten times; none without). Outside the runner a
 * claim adds its address to `lo` and takes it off again on release.
 *
 * A claim is a file named after the address in {@link CLAIMS_DIR}, created exclusively, holding
 * the claimant's pid; the claim of a process that is gone (killed outright) is taken over.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { guardOnExit } from './exit-guard.js';

/** 127.0.25.1–254: the addresses test servers listen on when a port of 127.0.0.1 will not do. */
export const LOOPBACK_POOL: readonly string[] = Array.from({ length: 254 }, (_, i) => `127.0.25.${i + 1}`);

/** Shared by every test process of the machine (they run as root: `ip addr` needs it). */
const CLAIMS_DIR = '/run/service-test-loopback';

/** One address of the pool, this process's until released. */
export interface LoopbackClaim {
  readonly address: string;
  /** Gives the address back, taking it off `lo` if the claim put it there. Safe to call twice. */
  release(): void;
}

/**
 * Claims the first address of the pool no other live process holds and for which `usable`
 * (e.g. "its port 25 is free") says yes, putting it on `lo` if it is not there.
 */
export async function claimLoopbackAddress(
  usable: (address: string) => Promise<boolean> = async () => true,
): Promise<LoopbackClaim> {
  mkdirSync(CLAIMS_DIR, { recursive: true });
  const held = addressesOnLoopback();
  for (const address of LOOPBACK_POOL) {
    if (!takeClaimFile(address)) continue;
    const added = !held.has(address);
    if (added) execFileSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo'], { stdio: 'pipe' });
    const claim = holdClaim(address, added);
    if (await usable(address)) return claim;
    claim.release();
  }
  throw new Error(`no address of 127.0.25.1-254 is both unclaimed and usable (claims: ${CLAIMS_DIR})`);
}

/** Whether a live process holds a claim on `address`. */
export function isLoopbackClaimed(address: string): boolean {
  const pid = claimant(address);
  return pid !== undefined && isAlive(pid);
}

/** The addresses `lo` holds now (IPv4). */
export function addressesOnLoopback(): Set<string> {
  const out = execFileSync('ip', ['-o', '-4', 'addr', 'show', 'dev', 'lo'], { encoding: 'utf8' });
  return new Set([...out.matchAll(/inet (\d+\.\d+\.\d+\.\d+)\//g)].map((m) => m[1]!));
}

/**
 * Puts the whole pool on `lo` (the test runner, before any test file starts); returns what takes
 * off again the addresses it added. Without root or `ip`, does nothing: the tests that need the
 * addresses then add their own, and say so when they cannot.
 */
export function holdLoopbackPool(): () => void {
  let missing: string[];
  try {
    if (process.getuid?.() !== 0) return () => {};
    const held = addressesOnLoopback();
    missing = LOOPBACK_POOL.filter((address) => !held.has(address));
  } catch {
    return () => {};
  }
  const batch = (verb: string) => missing.map((address) => `addr ${verb} ${address}/32 dev lo\n`).join('');
  execFileSync('ip', ['-batch', '-'], { input: batch('add'), stdio: ['pipe', 'ignore', 'pipe'] });
  return () => {
    try {
      execFileSync('ip', ['-force', '-batch', '-'], {
        input: batch('del'),
        stdio: ['pipe', 'ignore', 'ignore'],
      });
    } catch {}
  };
}

function claimFile(address: string): string {
  return path.join(CLAIMS_DIR, address);
}

/**
 * Creates the claim file, or takes over one whose process is gone. (Two processes taking over the
 * same stale claim at once could both win; stale claims come only from processes killed outright,
 * and the servers then find the port taken and pick again.)
 */
function takeClaimFile(address: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(claimFile(address), 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = claimant(address);
      // an empty file: its claimant is between creating and writing it
      if (pid === undefined || isAlive(pid)) return false;
      try {
        unlinkSync(claimFile(address));
      } catch {}
    }
  }
  return false;
}

function holdClaim(address: string, added: boolean): LoopbackClaim {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (added) {
      try {
        execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo'], { stdio: 'ignore' });
      } catch {}
    }
    if (claimant(address) === process.pid) {
      try {
        unlinkSync(claimFile(address));
      } catch {}
    }
    unguard();
  };
  // a test process that crashes gives its addresses back too
  const unguard = guardOnExit(release);
  return { address, release };
}

function claimant(address: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(claimFile(address), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
