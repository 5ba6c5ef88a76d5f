/**
 * The status poll's fast path: `POST /api/public/domain/status` answered straight from Node's
 * request event when everything it needs is at hand, with the same bytes, headers, rate-limit
 * count and log line as Fastify's pipeline would give; every other request, and every poll the
 * fast path cannot answer in full, goes to Fastify untouched.
 *
 * Why it exists (issue 19): polling is what clients do most, and Fastify's pipeline (routing,
 * three asynchronous hook steps, a header at a time, a child logger per request) cost more per
 * poll than the poll's own work. Measured figures are in docs/decisions.md, "Status polling speed".
 *
 * What it answers: a body that arrived whole with its headers, from a live `*`/`domains` key
 * already in this process's key cache, under its rate limit, while no client address is being
 * refused for failed authentications, when the body is exactly what the route's schema accepts
 * (`{"domains": [strings]}`, at most `maxItems`) and the domain service answers. Anything else
 * (an unknown, revoked or uncached key, a bad body, a limit reached, an error, a server that
 * is closing) is handed to Fastify, which answers it as it answers any request: the body is
 * read here without being taken from the request (read, then put back), so Fastify finds it.
 *
 * A poll handed over after it was counted (its key over the limit, or the service failing) is
 * counted again by Fastify: one extra count, on a request that is refused or failed anyway.
 *
 * Keeping the two paths equal: `status-fast-path.test.ts` sends each poll through the fast path
 * and, chunked, through Fastify (the fast path only answers bodies that came whole), and
 * compares status lines, headers and bodies byte for byte, and log lines; generated bodies too.
 * A hook or header added to the domain routes shows there first.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { hashApiKey, keyFromAuthorization } from '../domain/api-key.js';
import type { ObserveRequest } from '../metrics/http-metrics.js';
import type { DomainService } from '../service/domain-service.js';
import type { Store } from '../store/store.js';
import { holdsScope, isLive, MAX_KEY_LENGTH } from './auth.js';
import type { CostBudget } from './cost-budget.js';
import type { RequestCounts } from './protected-api.js';
import { requestId } from './request-id.js';
import { completedRequestLogger } from './request-log.js';
import { responseJson } from './response-json.js';
import { SECURITY_HEADERS } from './security-headers.js';

export const STATUS_PATH = '/api/public/domain/status';

export interface StatusFastPathOptions {
  store: Store;
  domains: DomainService;
  counts: RequestCounts;
  failures: CostBudget;
  maxItems: number;
  bodyLimit: number;
  /** Records each answered poll in the metrics (issue 39), as Fastify's `onResponse` does for the rest. */
  observe?: ObserveRequest;
  /**
   * Runs a poll's answer in its request's trace (issue 39): polls that arrive together are
   * answered in one turn, outside each one's call chain. Absent (tracing off): run as it is.
   */
  within?: (req: IncomingMessage, answer: () => void) => void;
  /** The running span's ids for the log line, as the logger's `mixin` adds them (tracing on). */
  traceFields?: () => { trace_id?: string; span_id?: string };
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How many polls the fast path answered, and how many it handed to Fastify. */
export interface StatusFastPathCounts {
  answered: number;
  handedOver: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when the status fast path is installed. */
    statusFastPath?: StatusFastPathCounts;
  }
}

/** The security headers as `writeHead` takes them, made once. */
const SECURITY_HEADER_LIST = Object.entries(SECURITY_HEADERS).flat();

/**
 * Puts the fast path in front of Fastify's request handler on `app.server`. Call it once the
 * routes are registered; it takes effect for requests that arrive after. Listening on a name
 * with several addresses (`HOST=localhost`), Fastify adds a server for each further address
 * with its own handler: polls there go through Fastify, answered alike but at its speed.
 */
export function installStatusFastPath(app: FastifyInstance, options: StatusFastPathOptions): void {
  const server: Server = app.server;
  const [fastify, ...others] = server.listeners('request') as Handler[];
  if (fastify === undefined || others.length > 0)
    throw new Error('the status fast path expects Fastify as the only request handler');
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const counts: StatusFastPathCounts = { answered: 0, handedOver: 0 };
  const logCompleted = completedRequestLogger(app.log, options.traceFields);
  app.decorate('statusFastPath', counts);
  const handOver = (req: IncomingMessage, res: ServerResponse) => {
    counts.handedOver += 1;
    fastify(req, res);
  };

  const answer = async (
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    arrivedOpen: boolean,
  ): Promise<void> => {
    // A socket already torn down (a parse error in the rest of its packet) gets nothing from us:
    // Fastify does with it what it does with any such request.
    const poll = arrivedOpen && !req.socket.destroyed ? readPoll(req, options) : undefined;
    if (poll === undefined) return handOver(req, res);
    let sent = false;
    try {
      const counted = options.counts.count(poll.keyId);
      const { current, ttl } = counted instanceof Promise ? await counted : counted;
      // Fastify counts it once more and answers 429: one extra count on a refused key.
      if (current > options.counts.max) return handOver(req, res);
      const views =
        options.domains.cachedStatus(poll.accountId, poll.names) ??
        (await options.domains.status(poll.accountId, poll.names));
      const body = responseJson(views);
      const id = requestId(req);
      res.writeHead(200, [
        ...SECURITY_HEADER_LIST,
        'x-request-id',
        id,
        'x-ratelimit-limit',
        String(options.counts.max),
        'x-ratelimit-remaining',
        String(Math.max(0, options.counts.max - current)),
        'x-ratelimit-reset',
        String(Math.ceil(ttl / 1000)),
        'content-type',
        'application/json; charset=utf-8',
        'content-length',
        String(body.length),
      ]);
      sent = true;
      res.end(body);
      counts.answered += 1;
      const ms = performance.now() - started;
      options.observe?.(STATUS_PATH, 'POST', 200, ms / 1000);
      logCompleted({
        reqId: id,
        method: 'POST',
        url: STATUS_PATH,
        statusCode: 200,
        ms: Math.round(ms * 10) / 10,
      });
    } catch (error) {
      // Nothing was written: Fastify asks the service again and answers whatever happens.
      if (!sent) return handOver(req, res);
      app.log.error({ err: error }, 'status fast path failed after answering');
    }
  };

  // The polls that arrived in this turn of the event loop, answered together in its check
  // phase: one Immediate for all of them rather than one each.
  let arrived: Arrival[] = [];
  const answerArrived = (): void => {
    const polls = arrived;
    arrived = [];
    const { within } = options;
    for (const { req, res, started, arrivedOpen } of polls) {
      if (within) within(req, () => void answer(req, res, started, arrivedOpen));
      else void answer(req, res, started, arrivedOpen);
    }
  };

  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== STATUS_PATH) return fastify(req, res);
    // The parser pushes a body that came with the headers after this event, and runs the
    // process's ticks in between (it calls out to JavaScript once per part): look once the
    // whole packet is parsed, in this turn of the event loop's check phase.
    // Whether the server was open is taken now: Fastify answers a request that came before its
    // close began, and so does this (one handed over once closing has begun gets Fastify's 503).
    if (arrived.length === 0) setImmediate(answerArrived);
    arrived.push({ req, res, started: performance.now(), arrivedOpen: !closing });
  });
}

/** A poll waiting for its turn's check phase. */
interface Arrival {
  req: IncomingMessage;
  res: ServerResponse;
  started: number;
  arrivedOpen: boolean;
}

interface Poll {
  keyId: string;
  accountId: string;
  names: string[];
}

/** The poll in `req`, when the fast path can answer it; its body stays in `req` either way. */
function readPoll(req: IncomingMessage, options: StatusFastPathOptions): Poll | undefined {
  const { headers } = req;
  const type = headers['content-type'];
  if (type !== 'application/json' && type !== 'application/json; charset=utf-8') return undefined;
  if (headers['transfer-encoding'] !== undefined || !req.complete) return undefined;
  // An address refused for failed authentications is refused before its key is looked at, and
  // which address this is depends on the proxy settings: Fastify decides while anyone is.
  if (options.failures.refusesAnyone()) return undefined;
  const presented = keyFromAuthorization(headers.authorization, false);
  if (presented === undefined || presented.length > MAX_KEY_LENGTH) return undefined;
  const hash = hashApiKey(presented);
  const key = options.store.cachedApiKeyByHash(hash);
  if (!isLive(key, hash) || !holdsScope(key, 'domains')) return undefined;
  const names = peekNames(req, options);
  return names && { keyId: key.id, accountId: key.accountId, names };
}

/**
 * The body's names when it is exactly `{"domains": [strings]}` within the limits; the body is
 * read and put back, so the request still holds it for Fastify.
 */
function peekNames(req: IncomingMessage, options: StatusFastPathOptions): string[] | undefined {
  // An empty body is not read at all: reading it would end the stream before Fastify listens.
  if (req.readableLength === 0) return undefined;
  const chunk: Buffer = req.read();
  req.unshift(chunk);
  if (chunk.length > options.bodyLimit) return undefined;
  const text = chunk.toString('utf8');
  // Fastify's parser refuses prototype keys; such a body is its to refuse.
  if (text.includes('__proto__') || text.includes('constructor')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== 'domains') return undefined;
  const names = (body as { domains: unknown }).domains;
  if (!Array.isArray(names) || names.length > options.maxItems) return undefined;
  return names.every((name) => typeof name === 'string') ? names : undefined;
}
