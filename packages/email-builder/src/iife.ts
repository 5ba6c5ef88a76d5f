/** The script-tag build: one global, `ServiceEmailBuilder`, with everything (no chunks there). */
export * from './index.js';
export * from './templates/index.js';
