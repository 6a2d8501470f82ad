/**
 * Headless Debian Chromium driven by playwright-core, for the builder's README pictures and the tests that run built
 * pages in a real browser (test/helpers/chromium.ts).
 */
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
