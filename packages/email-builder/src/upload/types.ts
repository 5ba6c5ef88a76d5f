/**
 * What the editor needs of uploads before anyone uploads: the accepted types (for the file
 * picker) and the shape of the `upload` event. The upload code itself is loaded on first use.
 */
import type { ServiceEditorError } from '../errors.js';

/** Image types accepted for upload: the ones every major email client displays (no SVG). */
export const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** What the editor's `upload` event reports. */
export interface UploadEvent {
  phase: 'start' | 'progress' | 'done' | 'error';
  file: { name: string; size: number; type: string };
  loaded?: number;
  total?: number;
  url?: string;
  error?: ServiceEditorError;
}
