/**
 * Debian's Chromium for browser tests (never a downloaded browser). Outside CI a test without
 * Chromium skips with the reason; in CI (`CI` set) a missing Chromium is a failure.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Headless, no sandbox, and nothing that calls home (the machine has no network but the registries). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why a browser test cannot run here, or undefined when it can; throws in CI when Chromium is missing. */
export function chromiumMissing(): string | undefined {
  if (existsSync(chromiumPath)) return undefined;
  const reason = `Chromium not found at ${chromiumPath} (Debian: apt-get install chromium)`;
  if (process.env.CI) throw new Error(`${reason}; CI requires it`);
  return reason;
}

/** Starts Debian's Chromium through playwright-core. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}
