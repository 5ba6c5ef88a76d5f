// Runs the test files named in a JSON manifest ({files, concurrency, summaryFile}) with
// node:test, in the manifest's order: `node --test a b c` sorts its files by name, which
// started the longest ones whenever their names came up (the 150 s dashboard file at 400 s of
// a 660 s run), while `run({ files })` keeps the order given. scripts/test.mjs writes the
// manifest and starts this with the flags every test process needs (tsx, the CPU probe),
// which node:test hands on to each file's process.
import { createWriteStream, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summaryReporter from './summary-reporter.mjs';

const { files, concurrency, summaryFile } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const events = run({ files, concurrency, timeout: 600_000 });
// one stream of events, two reporters: the spec lines on stdout, the summary as JSON in a file
const toSpec = new PassThrough({ objectMode: true });
const toSummary = new PassThrough({ objectMode: true });
events.pipe(toSpec);
events.pipe(toSummary);
await Promise.all([
  pipeline(toSpec, new spec(), process.stdout, { end: false }),
  pipeline(toSummary, summaryReporter, createWriteStream(summaryFile)),
]);
