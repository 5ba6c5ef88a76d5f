/**
 * The services behind the browser-facing routes (saved templates, image uploads), built from
 * the configuration and the shared store. One place, for the server and for anything else that
 * builds the app (the OpenAPI document generator).
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { RenderPool } from '../render/pool.js';
import { ImageFiles } from '../store/image-files.js';
import { ImageStore } from '../store/image-store.js';
import type { KyselyStore } from '../store/kysely-store.js';
import { TemplateStore } from '../store/template-store.js';
import { ImageService } from './image-service.js';
import { TemplateService } from './template-service.js';

export interface BrowserServices {
  templates: TemplateService;
  images: ImageService;
  /** The render threads, which also compose messages to send (`EmailService`). */
  pool: RenderPool;
  /** Stops the render threads. */
  close(): Promise<void>;
}

export function createBrowserServices(config: Config, store: KyselyStore): BrowserServices {
  // Threads start on the first render or check, so building the app alone starts none.
  const pool = new RenderPool({
    threads: config.templates.renderThreads,
    ...(config.editorBlocks && { blocksModule: config.editorBlocks }),
  });
  return {
    templates: new TemplateService({ store: new TemplateStore(store.db), limits: config.templates, pool }),
    pool,
    images: new ImageService({
      store: new ImageStore(store.db),
      files: new ImageFiles(path.join(config.dataDir, 'images')),
      limits: config.images,
    }),
    close: () => pool.close(),
  };
}
