/**
 * Runs in each render thread (see `pool.ts`): the editor's own renderer and document checker,
 * off the event loop. A 255 KB template renders in tens of milliseconds; on the event loop a
 * batch of them stalled every other account's requests for seconds.
 *
 * Plain JavaScript on purpose: worker threads start without the TypeScript loader the tests
 * run under, so this file must run as it is, from `src` as from `dist`. The task and result
 * shapes are typed in `pool.ts`.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import {
  checkDocument,
  renderEmail,
  renderTemplate,
  renderText,
  ServiceEditorError,
} from '@service/email-builder';
import { move } from 'piscina';
import { composeMessage } from '../email/compose.js';
import { personalise } from '../email/tracked-links.js';

// Linux keeps a nice value per thread: lowering this one's priority lets the event loop (and
// so status polls and every cheap request) win the CPU whenever renders compete for it.
try {
  setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), workerData.nice);
} catch {
  // no /proc/thread-self: the thread runs at normal priority
}

/**
 * The host's custom blocks (`EDITOR_BLOCKS`, checked at start by `editor-blocks.ts`): rendered
 * and checked as the editor does.
 */
const blocks = workerData.blocksModule ? await loadBlocks(workerData.blocksModule) : undefined;

async function loadBlocks(url) {
  const module = await import(url);
  return module.blocks ?? module.default;
}

const union = (a, b) => [...new Set([...a, ...b])];

/**
 * The render answer's entry for one template, as UTF-8 JSON bytes: serialising a batch's
 * 8 MB of HTML on the event loop took 30–70 ms, so it happens here, and the bytes move to the
 * main thread without a copy (their own ArrayBuffer, transferred).
 */
function render({ id, document, variables }) {
  const parsed = JSON.parse(document);
  const html = renderTemplate(renderEmail(parsed, { blocks }), variables, { format: 'html' });
  const text = renderTemplate(renderText(parsed, { blocks }), variables, { format: 'text' });
  const entry = {
    data: {
      id,
      html: html.output,
      text: text.output,
      missing: union(html.missing, text.missing),
      defaulted: union(html.defaulted, text.defaulted),
      unsafe: union(html.unsafe, text.unsafe),
    },
    error: null,
    status: 200,
  };
  return move(new TextEncoder().encode(JSON.stringify(entry)));
}

function check({ document }) {
  try {
    return { ok: true, json: JSON.stringify(checkDocument(document, { blocks })) };
  } catch (error) {
    if (error instanceof ServiceEditorError)
      return { ok: false, message: error.message.replace(/^SEB_ERR_\w+: /, '') };
    throw error;
  }
}

/**
 * A message composed (`email/compose.js`), with its size in bytes; or `too-deep` when its HTML
 * nests deeper than html-to-text's recursive walk can follow (200,000 nested `<div>` overflow
 * the stack): the caller's 400, where it was a 500.
 */
async function compose({ input }) {
  try {
    const message = await composeMessage(input);
    return { ok: true, message, bytes: Buffer.byteLength(message) };
  } catch (error) {
    if (error instanceof RangeError && /call stack/.test(error.message))
      return { ok: false, reason: 'too-deep' };
    throw error;
  }
}

/**
 * Piscina's entry point: one task in, its result out.
 * @param {{ kind: 'render' | 'check' | 'compose' | 'personalise' } & Record<string, any>} task
 * @returns {unknown}
 */
export default function run(task) {
  if (task.kind === 'render') return render(task);
  if (task.kind === 'compose') return compose(task);
  if (task.kind === 'personalise') return personalise(task.message, task.key, task.recipientId);
  return check(task);
}
