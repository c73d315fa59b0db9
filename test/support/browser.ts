// The real headless browser of the browser tests: Debian's chromium (installed by scripts/install.sh), driven by
// playwright-core. The flags keep it off this machine's closed network (no background requests, no QUIC).
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails the suite with a clear message (never a skip) when the browser is not installed. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run scripts/install.sh (installs Debian's chromium package)`);
}
