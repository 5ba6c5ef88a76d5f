/** The template stores, as one module for the editor's on-demand `import()`. */
export { HttpTemplateStore } from './http-store.js';
export { LocalTemplateStore } from './local-store.js';
