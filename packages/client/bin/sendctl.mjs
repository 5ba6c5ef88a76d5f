#!/usr/bin/env node
// sendctl: see packages/client/README.md. Built code lives in ../dist.
import { sendctl } from '../dist/cli/sendctl.js';

const io = {
  out: (text) => process.stdout.write(`${text}\n`),
  // progress redraws (starting with \r or an escape sequence) stay on their lines
  err: (text) =>
    process.stderr.write(text.startsWith('\r') || text.startsWith('\u001b') ? text : `${text}\n`),
  // SENDCTL_TTY=1: live progress even where stderr is not a terminal (a CI log that renders ANSI)
  isTty: Boolean(process.stderr.isTTY) || process.env.SENDCTL_TTY === '1',
  columns: process.stderr.columns,
  env: process.env,
  onInterrupt: (handler) => {
    process.once('SIGINT', handler);
    return () => process.off('SIGINT', handler);
  },
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
