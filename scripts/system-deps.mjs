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
  // Postfix 3.7 as a test MX and submission relay (packages/server/src/test-support/postfix.ts).
  { pkg: 'postfix', probe: '/usr/sbin/postfix' },
  // saslpasswd2, to write the relay's sasldb of SMTP AUTH users
  { pkg: 'sasl2-bin', probe: '/usr/sbin/saslpasswd2' },
  // the PLAIN and LOGIN mechanisms (only recommended by libsasl2-2, and we skip recommends)
  { pkg: 'libsasl2-modules', probe: '/usr/share/doc/libsasl2-modules/copyright' },
  // pebble, an ACME test CA that really validates tls-alpn-01 (packages/server/src/test-support/pebble.ts)
  { pkg: 'pebble', probe: '/usr/bin/pebble' },
  // Prometheus and promtool, to scrape and lint the metrics (packages/server/src/test-support/prometheus.ts)
  { pkg: 'prometheus', probe: '/usr/bin/promtool' },
];

/**
 * debconf answers given before installing, so no package asks. Postfix's default answer
 * ("Internet Site") writes /etc/postfix/main.cf with `inet_interfaces = all` and starts a system
 * postfix on *:25 wherever services may start, which would hold port 25 of every loopback
 * address the test instances listen on. "No configuration" writes no main.cf, and without one
 * the init script starts nothing.
 */
export const DEBCONF_SELECTIONS = ['postfix postfix/main_mailer_type select No configuration'];

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
  execFileSync('debconf-set-selections', [], { input: `${DEBCONF_SELECTIONS.join('\n')}\n`, env });
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
