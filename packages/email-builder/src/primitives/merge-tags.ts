/**
 * The merge-variable syntax, shared by the editor (chips), the renderers and `renderTemplate`:
 *
 * - `{{name}}`: the value of `name` in the data;
 * - `{{name|fallback}}`: the same, or `fallback` when the data has no value for `name`.
 *
 * A name is letters, digits and `_`, not starting with a digit; dots reach into nested objects
 * (`{{user.first_name}}`). Spaces inside the braces are allowed (`{{ name | friend }}`). A
 * fallback is any text without braces or line breaks. This is the syntax of Handlebars, Liquid
 * and most ESPs (SES, Postmark, Mailchimp's merge tags differ only in delimiters), so a rendered
 * email can also be handed to those as is.
 */

/** A variable name: `first_name`, `order.total`. At most {@link MAX_NAME} characters. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Longest variable name, and longest fallback. */
export const MAX_NAME = 64;
export const MAX_FALLBACK = 200;

/**
 * One variable tag anywhere in a text; group 1 is the name, group 2 the fallback (undefined when
 * there is none). Global: use with `matchAll` or `replace`.
 */
export const VARIABLE_TAG =
  /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:\|([^{}\r\n]*?))?\s*\}\}/g;

/** A whole value that is one variable tag and nothing else (a link whose URL comes from the data). */
export const VARIABLE_ONLY = /^\{\{\s*[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\s*\}\}$/;

/** True for a usable variable name. */
export function isVariableName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_NAME && VARIABLE_NAME.test(value);
}

/** A fallback made safe for the syntax: no braces, no line breaks, trimmed, at most 200 characters. */
export function cleanFallback(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/[{}\r\n]/g, '')
    .trim()
    .slice(0, MAX_FALLBACK);
}

/** Writes a variable tag: `{{name}}` or `{{name|fallback}}` (raw text; escape it for HTML). */
export function formatVariable(name: string, fallback = ''): string {
  const rest = cleanFallback(fallback);
  return rest ? `{{${name}|${rest}}}` : `{{${name}}}`;
}
