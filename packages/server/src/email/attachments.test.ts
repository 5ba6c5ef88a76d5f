/**
 * Attachment checks (issue 37): malformed entries and files mailbox providers refuse, by name,
 * by content, and inside a ZIP archive made by Python's zipfile (a real archiver).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { checkAttachments, zipEntryNames } from './attachments.js';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');

/** A ZIP holding `names` (each a small text), written by Python's zipfile. */
function zipOf(names: string[]): Buffer {
  const script =
    'import io,sys,zipfile\nb=io.BytesIO()\nz=zipfile.ZipFile(b,"w",zipfile.ZIP_DEFLATED)\n' +
    'for n in sys.argv[1:]: z.writestr(n, "hello " * 50)\nz.close()\nsys.stdout.buffer.write(b.getvalue())';
  return execFileSync('python3', ['-c', script, ...names]);
}

test('a PDF and an inline image are taken, sizes counted decoded, the Content-ID unwrapped', () => {
  const checked = checkAttachments([
    { filename: 'invoice-1234.pdf', content: b64('%PDF-1.4\n'), contentType: 'application/pdf' },
    { filename: 'logo.png', content: b64(Buffer.from([0x89, 0x50, 0x4e, 0x47])), contentId: '<logo@shop>' },
  ]);
  assert.ok(checked.ok);
  assert.equal(checked.bytes, 9 + 4);
  assert.deepEqual(
    checked.value.map((a) => [a.filename, a.contentType, a.contentId, a.bytes]),
    [
      ['invoice-1234.pdf', 'application/pdf', undefined, 9],
      ['logo.png', undefined, 'logo@shop', 4],
    ],
  );
});

test('files receivers refuse are refused by extension, by content and inside a ZIP', () => {
  const refused = (filename: string, content: Buffer | string) => {
    const result = checkAttachments([{ filename, content: b64(content) }]);
    assert.equal(result.ok, false, filename);
    return result.ok ? undefined : result;
  };
  assert.match(
    refused('setup.EXE', 'x')!.message,
    /^attachments\[0\]: "setup\.EXE" is a \.exe file; mailbox providers refuse/,
  );
  assert.match(refused('invoice.pdf.js', 'x')!.message, /is a \.js file/);
  assert.match(refused('run.bat. ', 'x')!.message, /is a \.bat file/);
  assert.match(
    refused('invoice.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]))!.message,
    /holds a Windows executable \(MZ\)/,
  );
  assert.match(
    refused('tool', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))!.message,
    /holds a Linux executable \(ELF\)/,
  );
  const archive = zipOf(['readme.txt', 'bin/setup.exe']);
  assert.deepEqual(zipEntryNames(archive), ['readme.txt', 'bin/setup.exe']);
  const inZip = refused('photos.zip', archive)!;
  assert.equal(inZip.code, 'EMAIL_ATTACHMENT_BLOCKED');
  assert.match(inZip.message, /"photos\.zip" is an archive holding "bin\/setup\.exe", a \.exe file/);
  // an archive of documents is fine
  assert.equal(
    checkAttachments([{ filename: 'docs.zip', content: b64(zipOf(['a.pdf', 'b.txt'])) }]).ok,
    true,
  );
});

test('malformed entries are named', () => {
  const invalid = (entry: Parameters<typeof checkAttachments>[0], message: RegExp) => {
    const result = checkAttachments(entry);
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.code, 'EMAIL_ATTACHMENT_INVALID');
      assert.match(result.message, message);
    }
  };
  invalid(
    [{ filename: '../etc/passwd', content: b64('x') }],
    /attachments\[0\]: filename .* must be a plain file name/,
  );
  invalid([{ filename: 'a\r\nb.txt', content: b64('x') }], /must be a plain file name/);
  invalid([{ filename: '', content: b64('x') }], /filename must be 1 to 255 characters/);
  invalid([{ filename: 'a.txt', content: 'not base64!' }], /content is not base64/);
  for (const content of ['YQ', 'YQ=', 'Y===', 'YQ==YQ==', '=YQ=', 'YQ=a'])
    invalid([{ filename: 'a.txt', content }], /content is not base64/);
  invalid(
    [{ filename: 'a.txt', content: b64('x'), contentType: 'text' }],
    /contentType "text" is not a media type/,
  );
  invalid(
    [{ filename: 'a.png', content: b64('x'), contentId: 'logo shop' }],
    /contentId must be visible ASCII/,
  );
  invalid(
    [
      { filename: 'a.png', content: b64('x'), contentId: 'logo@shop' },
      { filename: 'b.png', content: b64('y'), contentId: '<logo@shop>' },
    ],
    /attachments\[1\]: contentId "logo@shop" is given twice/,
  );
  // base64 with line breaks, as mail tools write it, is fine
  assert.equal(
    checkAttachments([
      {
        filename: 'a.txt',
        content: `${b64('a'.repeat(80)).slice(0, 76)}\r\n${b64('a'.repeat(80)).slice(76)}`,
      },
    ]).ok,
    true,
  );
});

test('a 6 MB attachment is checked as any other (the base64 check once overflowed V8’s stack at 5 MB)', () => {
  const data = Buffer.alloc(6_000_000, 7);
  const checked = checkAttachments([{ filename: 'report.pdf', content: data.toString('base64') }]);
  assert.ok(checked.ok);
  assert.equal(checked.bytes, 6_000_000);
  const broken = checkAttachments([{ filename: 'report.pdf', content: `${data.toString('base64')}!` }]);
  assert.equal(broken.ok, false);
});
