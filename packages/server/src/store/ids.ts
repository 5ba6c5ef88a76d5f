import { randomBytes } from 'node:crypto';
import { base32 } from 'rfc4648';

/** A new opaque id such as `dom_k5x2…`: a type prefix and 96 random bits. */
export function newId(
  prefix: 'acc' | 'key' | 'dom' | 'evt' | 'tpl' | 'whk' | 'msg' | 'dlv' | 'eml' | 'rcp' | 'eev',
): string {
  return `${prefix}_${base32.stringify(randomBytes(12), { pad: false }).toLowerCase()}`;
}
