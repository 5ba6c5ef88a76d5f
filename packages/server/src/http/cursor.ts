/**
 * Listing cursors: opaque to clients, they are the text that marks where the next page starts
 * (a domain name; a template's `<updatedAt>.<id>`), base64url-encoded.
 */
import { ApiError } from '../errors.js';

export function encodeCursor(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/**
 * The text of a cursor this API returned. Anything else (not canonical base64url, empty, or
 * refused by `valid`) is a REQUEST_INVALID, never a query with garbage in it.
 */
export function decodeCursor(cursor: string, valid: (text: string) => boolean = () => true): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (text.length === 0 || encodeCursor(text) !== cursor || !valid(text)) {
    throw new ApiError('REQUEST_INVALID', 'cursor is not one this API returned', [
      { path: 'querystring.cursor', message: 'is not a valid cursor' },
    ]);
  }
  return text;
}
