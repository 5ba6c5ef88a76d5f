// Loaded into every test process (`--import`, by scripts/test.mjs). When a test file's process
// exits it records the CPU that file cost: its own, and that of the children it waited for
// (CLIs, Chromium, BIND, Postfix). On two cores the run's length is its CPU divided by two, so
// the files to make cheaper are the ones at the top of this list, not of the wall-time one.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.env.TEST_CPU_DIR;
// node:test's children run with NODE_TEST_CONTEXT set; the runner itself is not a test file.
if (dir && process.env.NODE_TEST_CONTEXT && process.argv[1]) {
  process.on('exit', () => {
    try {
      // /proc/self/stat after "(comm) ": index 11 utime, 12 stime, 13 cutime, 14 cstime, in ticks
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      writeFileSync(
        path.join(dir, `${process.pid}.json`),
        JSON.stringify({ file: process.argv[1], cpuMs: ticks * 10 }),
      );
    } catch {
      // not Linux, or the directory is gone: the list is a diagnosis, never a failure
    }
  });
}
