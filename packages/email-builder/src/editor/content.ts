import type { DOMParser as PMDOMParser, Node as PMNode, Schema } from 'prosemirror-model';
import { cleanDocument } from '../document/validate.js';
import { ServiceEditorError } from '../errors.js';
import { readAttrsMarker } from '../model/attrs.js';
import { DOC_ATTRS } from '../model/doc.js';
import type { JSONNode } from '../model/types.js';
import type { BlockDefinition } from '../nodes/define.js';
import { chipVariables } from '../nodes/variable/index.js';

/** What {@link parseContent} reads a document with. */
export interface ContentReader {
  schema: Schema;
  /** the editor's HTML parser (see `input/html-parser.ts`) */
  parser: PMDOMParser;
  /** the document settings a document without its own takes */
  defaults: Record<string, unknown>;
  /** the host's custom blocks */
  blocks: readonly BlockDefinition[] | undefined;
}

/**
 * The document of `setContent` and the `content` option: HTML (any HTML, normalised to the
 * editor's blocks; `getHTML()` output comes back exactly, settings included) or the JSON of
 * `getJSON()`. Invalid JSON throws `SEB_ERR_UNKNOWN_NODE`, `SEB_ERR_UNKNOWN_MARK` or
 * `SEB_ERR_BAD_CONTENT`.
 */
export function parseContent(content: string | object, reader: ContentReader): PMNode {
  const { schema, parser, defaults, blocks } = reader;
  if (typeof content === 'string') {
    const dom = new window.DOMParser().parseFromString(content, 'text/html');
    const marker = dom.querySelector('[data-block="doc"]');
    for (const el of dom.querySelectorAll('[data-sv-preheader], script, style, template')) el.remove();
    const attrs = marker ? readAttrsMarker(DOC_ATTRS, marker.getAttribute('data-attrs')) : defaults;
    const parsed = parser.parse(dom.body);
    return schema.nodes.doc!.create(attrs, chipVariables(parsed.content, schema));
  }
  const raw = content as JSONNode;
  const cleaned = cleanDocument({ ...raw, attrs: { ...defaults, ...(raw?.attrs ?? {}) } }, { blocks });
  if (!cleaned.content?.length) cleaned.content = [{ type: 'paragraph' }];
  try {
    const node = schema.nodeFromJSON(cleaned);
    node.check();
    return node;
  } catch (error) {
    throw new ServiceEditorError('SEB_ERR_BAD_CONTENT', {
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

/** An empty document (one empty paragraph) with the given settings. */
export function emptyDocument(schema: Schema, settings: Record<string, unknown>): PMNode {
  return schema.nodes.doc!.create(settings, schema.nodes.paragraph!.create());
}
