/**
 * Uploaded image files on disk, named by their content: `<dir>/<sha256 hex>.<ext>`. A name is
 * a promise about the bytes, so files never change and can be cached forever; the same image
 * uploaded twice is stored once.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A stored file name: 64 hex digits and one of the four extensions. */
export const IMAGE_FILE_NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

export class ImageFiles {
  constructor(readonly dir: string) {}

  /** Writes the file unless it exists; atomic (temporary file, then rename), so readers never see half a file. */
  async put(name: string, bytes: Uint8Array): Promise<void> {
    if (!IMAGE_FILE_NAME.test(name)) throw new Error(`not an image file name: ${name}`);
    const target = path.join(this.dir, name);
    if (await this.size(name)) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      // Only this process reads them (the public route streams them): nobody else's business.
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
      await rename(temp, target);
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** Removes the file; a file already gone is no error. */
  async remove(name: string): Promise<void> {
    if (!IMAGE_FILE_NAME.test(name)) throw new Error(`not an image file name: ${name}`);
    await rm(path.join(this.dir, name), { force: true });
  }

  /** The file's size, or `undefined` when there is no such file. */
  async size(name: string): Promise<number | undefined> {
    if (!IMAGE_FILE_NAME.test(name)) return undefined;
    try {
      const s = await stat(path.join(this.dir, name));
      return s.isFile() ? s.size : undefined;
    } catch {
      return undefined;
    }
  }

  /** A stream of the file (check it exists with `size` first). */
  open(name: string): ReadStream {
    if (!IMAGE_FILE_NAME.test(name)) throw new Error(`not an image file name: ${name}`);
    return createReadStream(path.join(this.dir, name));
  }
}
