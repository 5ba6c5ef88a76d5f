/**
 * Attachments as the sending API takes them (issue 37): `{filename, content (base64),
 * contentType, contentId}`, checked before anything is composed.
 *
 * Files mailbox providers refuse are refused here first, with the reason, rather than
 * accepted and bounced (or silently dropped) by Gmail: by extension (Gmail's list of blocked
 * file types), by content whatever the name says (Windows, Linux and macOS executables), and
 * inside ZIP archives by the names their directory lists (as Gmail does). A `contentId` makes
 * the file an inline part, for `<img src="cid:…">`.
 */

export interface AttachmentInput {
  filename: string;
  /** The file's bytes, base64 (RFC 4648, padding required; line breaks allowed). */
  content: string;
  contentType?: string;
  contentId?: string;
}

/** A checked attachment, as the composer takes it. */
export interface CheckedAttachment {
  filename: string;
  /** base64 without line breaks */
  content: string;
  contentType?: string;
  contentId?: string;
  bytes: number;
}

export type AttachmentsCheck =
  | { ok: true; value: CheckedAttachment[]; bytes: number }
  | { ok: false; code: 'EMAIL_ATTACHMENT_INVALID' | 'EMAIL_ATTACHMENT_BLOCKED'; message: string };

/**
 * Extensions Gmail blocks (support.google.com/mail/answer/6590, as of 2026), lower case: the
 * same file is refused whatever its case, and in a ZIP archive.
 */
export const BLOCKED_EXTENSIONS = new Set(
  (
    'ade adp apk appx appxbundle bat cab chm cmd com cpl diagcab diagcfg diagpack dll dmg ex ex_ exe ' +
    'hta img ins iso isp jar jnlp js jse lib lnk mde msc msi msix msixbundle msp mst nsh pif ps1 scr ' +
    'sct shb sys vb vbe vbs vhd vxd wsc wsf wsh xll'
  ).split(' '),
);

/** Leading bytes of executables, named for the refusal. */
const EXECUTABLE_MAGIC: [string, Buffer][] = [
  ['a Windows executable (MZ)', Buffer.from('MZ')],
  ['a Linux executable (ELF)', Buffer.from([0x7f, 0x45, 0x4c, 0x46])],
  ['a macOS executable (Mach-O)', Buffer.from([0xcf, 0xfa, 0xed, 0xfe])],
  ['a macOS executable (Mach-O)', Buffer.from([0xce, 0xfa, 0xed, 0xfe])],
  ['a macOS executable (Mach-O)', Buffer.from([0xfe, 0xed, 0xfa, 0xcf])],
  ['a macOS executable (Mach-O)', Buffer.from([0xfe, 0xed, 0xfa, 0xce])],
  ['a Windows shortcut (.lnk)', Buffer.from([0x4c, 0x00, 0x00, 0x00, 0x01, 0x14, 0x02, 0x00])],
];

/**
 * Padded base64 (RFC 4648): whole quads of the alphabet, `=` only as the last one or two
 * characters. Not one pattern of quads (`(?:[…]{4})*`): V8 runs a repeated group on its
 * stack, and a 5 MB attachment overflowed it (a 500 where a send should be accepted).
 */
const isBase64 = (text: string) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
/** RFC 2045 `type/subtype` tokens, parameters allowed. */
const MEDIA_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\r\n]*"))*$/;
/** A Content-ID's inside: `id-left@id-right` or any visible ASCII without `<>`, spaces or quotes. */
const CONTENT_ID = /^[\x21-\x7e]+$/;
const MAX_FILENAME = 255;

export function checkAttachments(list: readonly AttachmentInput[] | undefined): AttachmentsCheck {
  const value: CheckedAttachment[] = [];
  let bytes = 0;
  const contentIds = new Set<string>();
  for (const [i, attachment] of (list ?? []).entries()) {
    const field = `attachments[${i}]`;
    const invalid = (message: string): AttachmentsCheck => ({
      ok: false,
      code: 'EMAIL_ATTACHMENT_INVALID',
      message: `${field}: ${message}`,
    });
    const blocked = (message: string): AttachmentsCheck => ({
      ok: false,
      code: 'EMAIL_ATTACHMENT_BLOCKED',
      message: `${field}: ${message}; mailbox providers refuse such files (Gmail's list is in the API guide): send a link instead`,
    });
    const filename = attachment.filename.normalize('NFC');
    if (filename.trim() === '' || filename.length > MAX_FILENAME)
      return invalid(`filename must be 1 to ${MAX_FILENAME} characters`);
    // A path or a control character would be read by mail clients as something else.
    if (/[/\\\p{Cc}]/u.test(filename) || filename === '.' || filename === '..')
      return invalid(
        `filename ${JSON.stringify(filename)} must be a plain file name (no slashes or control characters)`,
      );
    const content = attachment.content.replace(/\r?\n/g, '');
    if (!isBase64(content)) return invalid('content is not base64 (RFC 4648, padded)');
    const data = Buffer.from(content, 'base64');
    if (attachment.contentType !== undefined && !MEDIA_TYPE.test(attachment.contentType))
      return invalid(
        `contentType ${JSON.stringify(attachment.contentType.slice(0, 100))} is not a media type such as application/pdf`,
      );
    if (attachment.contentId !== undefined) {
      const id = attachment.contentId.replace(/^<(.*)>$/, '$1');
      if (!CONTENT_ID.test(id) || id.length > 250 || /[<>"]/.test(id))
        return invalid(
          'contentId must be visible ASCII without spaces, quotes or angle brackets (e.g. logo@shop)',
        );
      if (contentIds.has(id)) return invalid(`contentId ${JSON.stringify(id)} is given twice`);
      contentIds.add(id);
    }
    const extension = blockedExtension(filename);
    if (extension) return blocked(`${JSON.stringify(filename)} is a .${extension} file`);
    const executable = EXECUTABLE_MAGIC.find(([, magic]) => data.subarray(0, magic.length).equals(magic));
    if (executable) return blocked(`${JSON.stringify(filename)} holds ${executable[0]}`);
    const inZip = zipEntryNames(data).find((name) => blockedExtension(name));
    if (inZip !== undefined)
      return blocked(
        `${JSON.stringify(filename)} is an archive holding ${JSON.stringify(inZip)}, a .${blockedExtension(inZip)} file`,
      );
    bytes += data.length;
    value.push({
      filename,
      content,
      bytes: data.length,
      ...(attachment.contentType !== undefined && { contentType: attachment.contentType }),
      ...(attachment.contentId !== undefined && {
        contentId: attachment.contentId.replace(/^<(.*)>$/, '$1'),
      }),
    });
  }
  return { ok: true, value, bytes };
}

/** The blocked extension of a file name (its last; trailing dots and spaces ignored, as Windows does). */
function blockedExtension(name: string): string | undefined {
  const trimmed = name.replace(/[. ]+$/, '');
  const dot = trimmed.lastIndexOf('.');
  if (dot === -1) return undefined;
  const extension = trimmed.slice(dot + 1).toLowerCase();
  return BLOCKED_EXTENSIONS.has(extension) ? extension : undefined;
}

/**
 * The file names a ZIP archive's central directory lists (APPNOTE 4.3.12), without inflating
 * anything; `[]` for anything that is not a readable ZIP. The directory is found from the end
 * record, in the last 64 KiB + 22 bytes.
 */
export function zipEntryNames(data: Buffer): string[] {
  if (data.length < 22 || data.readUInt32LE(0) !== 0x04034b50) return [];
  const from = Math.max(0, data.length - 65_557);
  let end = -1;
  for (let at = data.length - 22; at >= from; at--) {
    if (data.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) return [];
  const count = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) break;
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    if (at + 46 + nameLength > data.length) break;
    names.push(data.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
