/** A mark as stored in a document's JSON (ProseMirror's `Mark.toJSON()` shape). */
export interface JSONMark {
  type: string;
  attrs?: Record<string, unknown>;
}

/** A node as stored in a document's JSON (ProseMirror's `Node.toJSON()` shape). */
export interface JSONNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: JSONNode[];
  text?: string;
  marks?: JSONMark[];
}
