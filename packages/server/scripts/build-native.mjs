// Build the responder's batch UDP socket (native/udp-batch.c) into dist/native/udp-batch.node
// with the system's C compiler and the headers of the Node that runs this. Optional: without a
// compiler or the headers it says so and stops without failing the build, and the responder
// reads UDP through Node's dgram (docs/decisions.md, "The responder's UDP in batches").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, '../native/udp-batch.c');
const out = path.join(here, '../dist/native/udp-batch.node');
// Node's headers: beside its binary (/usr/bin/node → /usr/include/node, as Debian and the
// official tarballs lay them out)
const include = path.resolve(path.dirname(process.execPath), '../include/node');
const compiler = process.env.CC || 'cc';

// a build that cannot be made must not leave the last one in use while saying dgram is
rmSync(out, { force: true });
if (process.platform !== 'linux') skip(`recvmmsg and sendmmsg are Linux's; this is ${process.platform}`);
if (!existsSync(path.join(include, 'node_api.h'))) skip(`no Node headers at ${include}`);
mkdirSync(path.dirname(out), { recursive: true });
try {
  execFileSync(compiler, ['-O2', '-Wall', '-Wextra', '-shared', '-fPIC', '-I', include, '-o', out, source], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
} catch (error) {
  skip(`${compiler} failed: ${error.message.split('\n')[0]}`);
}

function skip(reason) {
  console.log(`native/udp-batch.c not built (${reason}): the DNS responder reads UDP through dgram`);
  process.exit(0);
}
