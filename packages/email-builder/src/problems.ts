/**
 * The catalogue of content problems: what an email lacks that a reader or the law expects,
 * found by `editor.getProblems()` (and {@link findProblems} in Node) so a host can warn before
 * sending, and shown in the editor on the block itself. The renderer never invents the missing
 * value (no placeholder address or name ships in an email); the README lists the same codes.
 */
export const PROBLEMS = {
  SEB_PROBLEM_NO_ADDRESS:
    'The footer has no postal address; marketing email must carry one in several countries (US CAN-SPAM, Canada CASL)',
  SEB_PROBLEM_NO_UNSUBSCRIBE:
    'The footer has no unsubscribe link, so its unsubscribe line is not in the email',
  SEB_PROBLEM_NO_SENDER_NAME: 'The signature has no name',
  SEB_PROBLEM_NO_LINK: 'The button links nowhere',
  SEB_PROBLEM_NO_SOCIAL_LINKS: 'The social links have no profile addresses, so the row is not in the email',
  SEB_PROBLEM_NO_IMAGE: 'The image (or logo) has no picture, so it is not in the email',
  SEB_PROBLEM_NO_LIST: 'The repeat names no list variable, so only its empty state is in the email',
} as const;

/** A code of the problem catalogue. */
export type ProblemCode = keyof typeof PROBLEMS;

/** One problem of a document: what, in which block, and where. */
export interface ContentProblem {
  code: ProblemCode;
  message: string;
  /** The block's type, e.g. `footer`. */
  block: string;
  /** Child indexes from the document down to the block (`[3]`: its fourth block). */
  path: number[];
}

/** The editor's short prompt for a problem, shown on the block while editing. */
export const PROBLEM_HINTS: Record<ProblemCode, string> = {
  SEB_PROBLEM_NO_ADDRESS: 'Add your postal address',
  SEB_PROBLEM_NO_UNSUBSCRIBE: 'Unsubscribe line: not in the email until it has a link',
  SEB_PROBLEM_NO_SENDER_NAME: 'Add your name',
  SEB_PROBLEM_NO_LINK: 'Add the link',
  SEB_PROBLEM_NO_SOCIAL_LINKS: 'Not in the email until a profile address is added',
  SEB_PROBLEM_NO_IMAGE: 'Not in the email until an image is added',
  SEB_PROBLEM_NO_LIST: 'Name the list to repeat',
};
