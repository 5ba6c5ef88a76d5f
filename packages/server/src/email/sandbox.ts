/**
 * The development sandbox (issue 40): outside production mode, any account may send from
 * `onboarding@sandbox.test` (no domain to register or verify) to the simulator's addresses,
 * and mail to any `sandbox.test` address never leaves the machine: it lands in the capture
 * inbox (`email/sandbox-inbox.ts`) and its status, events and webhooks follow the outcome the
 * address names, as Resend's test addresses do:
 *
 * - `delivered@sandbox.test`: accepted by the "receiving server" (`sent`, then `delivered`);
 * - `bounced@sandbox.test`: refused `550 5.1.1` (a hard bounce: `bounced`, and the address
 *   suppressed, as a real hard bounce does);
 * - `complained@sandbox.test`: delivered, then reported as spam (`complained`, the address
 *   suppressed for the stream).
 *
 * A `+label` keeps the outcome and makes a different address (`bounced+2@sandbox.test`), so a
 * suppression from one try does not stop the next. `.test` is reserved (RFC 2606): no real
 * domain can be this one.
 */

/** The sandbox's domain: its sender's and its recipients'. */
export const SANDBOX_DOMAIN = 'sandbox.test';

/** `emails.domain_id` of a message sent from the sandbox's domain (no registration behind it). */
export const SANDBOX_DOMAIN_ID = 'sandbox';

/** The sandbox sender's stream: what a registered domain's type is for its messages. */
export const SANDBOX_STREAM = 'Transactional';

export const SANDBOX_OUTCOMES = ['delivered', 'bounced', 'complained'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** Whether mail to this domain is the sandbox's (`sandbox.test`, already normalized). */
export const isSandboxDomain = (domain: string): boolean => domain === SANDBOX_DOMAIN;

/**
 * What the sandbox does with mail to `address` (`local[+label]@sandbox.test`, any case), or
 * `undefined` when it names no outcome (or is not a sandbox address).
 */
export function sandboxOutcome(address: string): SandboxOutcome | undefined {
  const at = address.lastIndexOf('@');
  if (!isSandboxDomain(address.slice(at + 1).toLowerCase())) return undefined;
  const local = address.slice(0, at).toLowerCase().split('+')[0];
  return SANDBOX_OUTCOMES.find((o) => o === local);
}

/** The refusal a bounced@ address gets, as a receiving server words an unknown user. */
export const SANDBOX_BOUNCE = {
  code: 550,
  text: '550 5.1.1 The email account that you tried to reach does not exist (simulated by the sandbox)',
};

/** The answer a delivered@ (or complained@) address gets. */
export const SANDBOX_ACCEPT = { code: 250, text: '250 2.0.0 Ok: captured by the sandbox' };

/** The name the sandbox gives as the receiving host in events (`mxHost`). */
export const SANDBOX_HOST = 'capture.sandbox.test';
