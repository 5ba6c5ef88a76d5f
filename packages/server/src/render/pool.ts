/**
 * A bounded pool of render threads (Piscina): template rendering, document checks and the
 * composition of messages to send run there, never on the event loop, and at most `maxQueue`
 * wait, so a flood of renders (or sends) costs the flooder a 503 instead of costing everyone
 * else their latency.
 */
import { Piscina } from 'piscina';
import type { MailAddress } from '../email/address.js';

/** A stored document to render with its merge variables. */
interface RenderTask {
  kind: 'render';
  /** The template's id, echoed in the entry. */
  id: string;
  /** The document's JSON text, as stored. */
  document: string;
  variables: Record<string, unknown>;
}

/** A document to check with the editor's rules. */
interface CheckTask {
  kind: 'check';
  document: unknown;
}

/** A message to compose (`email/compose.js`): its fields as acceptance checked them. */
export interface ComposeInput {
  id: string;
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  replyTo: MailAddress[];
  subject: string;
  html: string;
  /** The text part; `null`: converted from `html`. */
  text: string | null;
  /** Caller headers, already checked (`email/headers.ts`). */
  headers: Record<string, string>;
  /** Date header, epoch milliseconds. */
  date: number;
  /** Checked attachments (`email/attachments.ts`), content in base64. */
  attachments: { filename: string; content: string; contentType?: string; contentId?: string }[];
  /** Open and click tracking (`email/tracked-links.js`): links and pixel through `base`. */
  tracking?: { base: string; opens: boolean; clicks: boolean; keep: string[] };
}

interface ComposeTask {
  kind: 'compose';
  input: ComposeInput;
}

/** The MIME message and its size, or why it cannot be composed (`too-deep`: HTML nested past any text converter). */
export type ComposeOutput = { ok: true; message: string; bytes: number } | { ok: false; reason: 'too-deep' };

/** A tracked message's copy for one recipient (`email/tracked-links.js`). */
interface PersonaliseTask {
  kind: 'personalise';
  message: string;
  key: Buffer;
  recipientId: string;
}

type Task = RenderTask | CheckTask | ComposeTask | PersonaliseTask;

/** The cleaned document's JSON, or why the editor cannot load it. */
export type CheckOutput = { ok: true; json: string } | { ok: false; message: string };

export interface RenderPoolOptions {
  threads: number;
  /** Tasks waiting for a thread; more are refused with `RenderQueueFullError`. Default 64 per thread. */
  maxQueue?: number;
  /** The threads' niceness (0 normal … 19 lowest). Default 19: the event loop always comes first. */
  nice?: number;
  /** The file URL of the custom blocks module (`EDITOR_BLOCKS`), already checked. */
  blocksModule?: string;
}

/** The pool's queue is full: the caller answers 503 with a short `Retry-After`. */
export class RenderQueueFullError extends Error {
  constructor() {
    super('the render threads are saturated');
  }
}

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;

export class RenderPool {
  private readonly pool: Piscina<Task, Uint8Array | CheckOutput | ComposeOutput>;

  constructor(options: RenderPoolOptions) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.maxQueue ?? 64 * options.threads,
      idleTimeout: 60_000,
      workerData: { nice: options.nice ?? 19, blocksModule: options.blocksModule },
    });
  }

  /**
   * One stored document rendered to email HTML and text with its variables filled, as the
   * render answer's entry (`RenderedTemplateEnvelope`) in UTF-8 JSON bytes.
   */
  render(id: string, document: string, variables: Record<string, unknown>): Promise<Uint8Array> {
    return this.run({ kind: 'render', id, document, variables }) as Promise<Uint8Array>;
  }

  /** The editor's `checkDocument`: the cleaned document's JSON, or why it cannot be loaded. */
  check(document: unknown): Promise<CheckOutput> {
    return this.run({ kind: 'check', document }) as Promise<CheckOutput>;
  }

  /** A message to send, composed off the event loop (issue 33). */
  compose(input: ComposeInput): Promise<ComposeOutput> {
    return this.run({ kind: 'compose', input }) as Promise<ComposeOutput>;
  }

  /** A tracked message's copy for one recipient: its tokens in its links and pixel (issue 37). */
  personalise(message: string, key: Buffer, recipientId: string): Promise<string> {
    return this.run({ kind: 'personalise', message, key, recipientId }) as Promise<string>;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async run(task: Task): Promise<Uint8Array | CheckOutput | ComposeOutput | string> {
    if (this.pool.queueSize >= this.pool.options.maxQueue) throw new RenderQueueFullError();
    return this.pool.run(task);
  }
}
