import { type Browser, chromium } from 'playwright-core';

/**
 * Launches Debian's Chromium headless, the way every browser test and the bench do; `flags` are
 * added to the usual arguments (the bench's frames on demand).
 */
export function launchChromium(flags: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...flags,
    ],
  });
}
