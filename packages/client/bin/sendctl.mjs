#!/usr/bin/env node
// sendctl: see packages/client/README.md. Built code lives in ../dist.
import { sendctl } from '../dist/cli/sendctl.js';

const io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(text.startsWith('\r') ? text : `${text}\n`),
  isTty: Boolean(process.stderr.isTTY),
  env: process.env,
};
sendctl(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`sendctl: unexpected error: ${error?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
