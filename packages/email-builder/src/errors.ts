/**
 * The one catalogue of the package's errors. Every error the package throws or reports is a
 * {@link ServiceEditorError} whose `code` is a key of {@link ERRORS}; the README lists the same
 * codes (a test keeps the two in step).
 */
export const ERRORS = {
  SEB_ERR_NOT_BROWSER:
    '{what} needs a browser (window and document): call it in client-side code only, never during server rendering',
  SEB_ERR_OPTIONS: 'Invalid option {name}: {reason}',
  SEB_ERR_ELEMENT_NOT_FOUND:
    'No element with id "{id}" in the document: add an empty element with that id first',
  SEB_ERR_ELEMENT_NOT_EMPTY: 'The element "#{id}" must be empty: the editor renders into it',
  SEB_ERR_BAD_COLOR: 'Option {name} must be a hex colour such as "#1a2b3c", got {value}',
  SEB_ERR_UNKNOWN_NODE: 'Unknown node type "{type}" in the document',
  SEB_ERR_UNKNOWN_MARK: 'Unknown mark type "{type}" in the document',
  SEB_ERR_BAD_CONTENT: 'Invalid document: {reason}',
  SEB_ERR_BAD_CONDITION: 'Invalid condition (showIf) on {block}: {reason}',
  SEB_ERR_SYNTAX: 'The email cannot be written in {syntax}: {reason}',
  SEB_ERR_BLOCK: 'Invalid custom block "{name}": {reason}',
  SEB_ERR_DESTROYED: 'This editor was destroyed; create a new one',
  SEB_ERR_UPLOAD_NOT_CONFIGURED: 'Image upload is not configured: pass imageServiceUrl or upload',
  SEB_ERR_UPLOAD_TYPE: '"{name}" is not an image this editor accepts ({accepted})',
  SEB_ERR_UPLOAD_SIZE: '"{name}" is {size}; the limit is {limit}',
  SEB_ERR_UPLOAD_HTTP: 'The image service answered {status}: {message}',
  SEB_ERR_UPLOAD_NETWORK: 'The image service could not be reached',
  SEB_ERR_UPLOAD_RESPONSE: 'The image service did not return a usable http(s) image URL',
  SEB_ERR_PREVIEW_DESTROYED: 'This MailPreview was destroyed; create a new one',
  SEB_ERR_BRANDING: 'Branding value {path} ignored: {reason}',
  SEB_ERR_TEMPLATE_INVALID: 'Invalid template: {reason}',
  SEB_ERR_TEMPLATE_NOT_FOUND: 'No saved template with id "{id}"',
  SEB_ERR_TEMPLATE_STORE: 'The template store failed: {reason}',
  SEB_ERR_TEMPLATE_SOURCE: 'The purchased templates could not be loaded: {reason}',
} as const;

/** A code of the error catalogue. */
export type ErrorCode = keyof typeof ERRORS;

/** Every error of the package: a stable `code` and a message built from the catalogue. */
/** Marks our errors across copies of the package (its ESM and CommonJS builds in one program). */
const BRAND = Symbol.for('@service/email-builder/ServiceEditorError');

export class ServiceEditorError extends Error {
  /**
   * `instanceof` holds for an error from either build of the package: a host whose bundle mixes
   * the ESM and the CommonJS entry (the dual-package hazard) would otherwise see two classes.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** The catalogue code, e.g. `SEB_ERR_ELEMENT_NOT_FOUND`. */
  readonly code: ErrorCode;
  /** The values substituted into the message. */
  readonly details: Record<string, string | number>;

  constructor(code: ErrorCode, details: Record<string, string | number> = {}) {
    const message = ERRORS[code].replace(/\{(\w+)\}/g, (_, key: string) =>
      String(details[key] ?? `{${key}}`),
    );
    super(`${code}: ${message}`);
    this.name = 'ServiceEditorError';
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    this.details = details;
  }
}
