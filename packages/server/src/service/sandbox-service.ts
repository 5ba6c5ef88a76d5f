/**
 * Reading the sandbox's capture inbox (issue 40, `email/sandbox.ts`): a page of what was "sent"
 * to `sandbox.test` addresses, and one message as a receiver got it: its headers as they
 * stand, its HTML and text parts, the raw message, and mailauth's verdicts.
 */

import { readMessage } from '../email/message-content.js';
import type { SandboxAuthentication } from '../email/sandbox-inbox.js';
import { ApiError } from '../errors.js';
import type { InboxMessage, InboxPosition, SandboxStore } from '../store/sandbox-store.js';

export class SandboxService {
  constructor(private readonly store: SandboxStore) {}

  /** `GET /api/public/sandbox/messages`: newest first; `next` is where the next page starts. */
  async list(accountId: string, limit: number, after: InboxPosition | undefined) {
    const page = await this.store.list(accountId, limit + 1, after);
    const shown = page.slice(0, limit);
    const last = shown.at(-1);
    return {
      messages: shown.map(summary),
      next: page.length > limit && last !== undefined ? { capturedAt: last.capturedAt, id: last.id } : null,
    };
  }

  /** `GET /api/public/sandbox/messages/{id}`. */
  async get(accountId: string, id: string) {
    const captured = await this.store.get(accountId, id);
    if (captured === undefined) {
      throw new ApiError(
        'SANDBOX_MESSAGE_NOT_FOUND',
        `the sandbox inbox of this account has no message ${id}`,
      );
    }
    return { ...summary(captured), ...(await readMessage(captured.message)), raw: captured.message };
  }
}

/** What the inbox lists of a capture: who, what, when, and the verdicts. */
function summary(captured: InboxMessage) {
  return {
    id: captured.id,
    emailId: captured.emailId,
    from: captured.from,
    to: captured.address,
    subject: captured.subject,
    capturedAt: new Date(captured.capturedAt).toISOString(),
    authentication: captured.authentication as SandboxAuthentication,
  };
}
