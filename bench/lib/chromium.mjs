/**
 * Debian's Chromium for the dev suite's page (never a downloaded browser): the same binary and
 * flags as the browser tests (test/chromium.ts).
 */
import { existsSync } from 'node:fs';

export const chromiumPath = '/usr/bin/chromium';

/** Headless, no sandbox, and nothing that calls home. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Whether the page can be loaded in Chromium here. */
export function chromiumAvailable() {
  return existsSync(chromiumPath);
}
