import { mkdirSync } from 'node:fs';
import { applyBranding } from '../src/branding/apply.js';
import { renderEmail } from '../src/render/email.js';
import { STARTER_TEMPLATES } from '../src/templates/gallery/starter.js';
import { demoBrand } from '../test-support/brand.js';
import { launchChromium } from '../test-support/browser.js';
import { startTestServer } from '../test-support/server.js';

const server = await startTestServer({ token: 'x' });
const b = await launchChromium();
mkdirSync('.bench/shots', { recursive: true });
const only = process.argv[2];
for (const tpl of STARTER_TEMPLATES) {
  if (only && tpl.id !== only) continue;
  const html = renderEmail(
    applyBranding(tpl.document, process.env.NOBRAND ? null : demoBrand(server.origin)),
  );
  server.setPage(`/t/${tpl.id}`, html);
  for (const w of [640, 375]) {
    const p = await b.newPage({ viewport: { width: w, height: 800 } });
    await p.goto(`${server.origin}/t/${tpl.id}`);
    await p.screenshot({ path: `.bench/shots/${tpl.id}-${w}.png`, fullPage: true });
    await p.close();
  }
}
await b.close();
await server.close();
