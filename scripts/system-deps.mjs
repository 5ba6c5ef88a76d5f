// The Debian packages the tests need, installed when missing and running as root.
// In CI a missing piece is a failure, never a skip.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Each package with a file that proves it is installed. */
export const SYSTEM_PACKAGES = [
  { pkg: 'bind9', probe: '/usr/sbin/named' },
  { pkg: 'bind9-dnsutils', probe: '/usr/bin/nsupdate' },
  { pkg: 'chromium', probe: '/usr/bin/chromium' },
  { pkg: 'postgresql', probe: '/usr/lib/postgresql' },
  { pkg: 'redis-server', probe: '/usr/bin/redis-server' },
];

export function ensureSystemPackages(packages = SYSTEM_PACKAGES) {
  const missing = packages.filter((p) => !existsSync(p.probe)).map((p) => p.pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}; install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  console.log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
  if (install().status !== 0) {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
    if (install().status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
  }
}
