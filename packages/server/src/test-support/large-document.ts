/**
 * The document issue 15's render attack saved: about 250 KB of editor JSON once cleaned, 820
 * paragraphs of 230 characters (the attack used 950 of about 255 KB; this stays under the
 * default TEMPLATE_MAX_BYTES of 256 KiB).
 */
export const LARGE_DOCUMENT = {
  type: 'doc',
  content: Array.from({ length: 820 }, (_, i) => ({
    type: 'paragraph',
    content: [
      { type: 'text', text: `${i} ${'Lorem ipsum dolor sit amet, consectetur. '.repeat(5)}`.slice(0, 230) },
    ],
  })),
};
