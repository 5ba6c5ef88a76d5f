import { checkDocument } from '../document/check.js';
import { ServiceEditorError } from '../errors.js';
import type { JSONNode } from '../model/types.js';
import { MAX_TEMPLATE_NAME } from './types.js';

/** A template name: trimmed, 1–200 characters, no control characters. */
export function checkTemplateName(name: unknown): string {
  const value = typeof name === 'string' ? name.trim() : '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (!value || value.length > MAX_TEMPLATE_NAME || /[\u0000-\u001f\u007f]/.test(value))
    throw new ServiceEditorError('SEB_ERR_TEMPLATE_INVALID', {
      reason: `a name must be 1 to ${MAX_TEMPLATE_NAME} characters without control characters`,
    });
  return value;
}

/** A template document: the editor's JSON, checked (unknown nodes fail with their own code). */
export function checkTemplateDocument(document: unknown): JSONNode {
  return checkDocument(document);
}
