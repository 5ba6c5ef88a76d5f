/**
 * Where the key that seals DKIM private keys comes from: `SECRET_KEY`, or in development a
 * generated key kept in `DATA_DIR/secret.key` with mode 0600 (and a warning, because a key
 * lying beside the database it protects protects little).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SECRET_KEY_BYTES } from './secret-box.js';

/** The development key file inside `dataDir`. */
export const secretKeyFile = (dataDir: string): string => path.join(dataDir, 'secret.key');

export interface SecretKeySource {
  key: Buffer;
  /** Where it came from; `generated` and `file` are development setups. */
  origin: 'env' | 'file' | 'generated';
  /** A warning to log (never the key itself), when the setup is not fit for production. */
  warning?: string;
}

/**
 * The configured key, or the development key file (created with mode 0600 on first use; a
 * file readable by others is tightened back to 0600).
 */
export function resolveSecretKey(configured: Buffer | undefined, dataDir: string): SecretKeySource {
  if (configured !== undefined) return { key: configured, origin: 'env' };
  const file = secretKeyFile(dataDir);
  const warning = `SECRET_KEY is unset: DKIM private keys are sealed with a development key kept in ${file}; set SECRET_KEY (32 random bytes, base64) in production`;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text === undefined) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const key = randomBytes(SECRET_KEY_BYTES);
    // Written whole to a file of its own, then linked into place: the link fails if another
    // process put a key there a moment ago (never overwrite it: keys are sealed with it), and
    // a process starting beside it never reads a file still being written (it read an empty
    // one, and refused to start, when the file was created and then written).
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, file);
      return { key, origin: 'generated', warning };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      text = readFileSync(file, 'utf8');
    } finally {
      unlinkSync(draft);
    }
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== SECRET_KEY_BYTES) {
    throw new Error(
      `${file} does not hold a ${SECRET_KEY_BYTES}-byte base64 key; restore it or set SECRET_KEY`,
    );
  }
  return { key, origin: 'file', warning };
}
