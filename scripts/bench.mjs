#!/usr/bin/env node
// `npm run bench`: build, then run each package's benchmarks. Figures are printed with
// ratios against baselines measured in the same run; nothing here is a test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const only = process.argv[2];
run('npm', ['run', '--silent', 'build']);
const benches = [
  ['server', ['--import', 'tsx', 'packages/server/bench/run.ts']],
  ['email-builder', ['--import', 'tsx', 'packages/email-builder/bench/run.mjs']],
];
for (const [name, args] of benches) {
  if (only && only !== name) continue;
  if (!existsSync(args.at(-1))) continue;
  console.log(`\n# ${name}`);
  run(process.execPath, args);
}
