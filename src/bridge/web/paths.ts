/**
 * Where the web pages live on disk, and the files the pages load that are not in that folder:
 * the MQTT.js browser bundle, which the server serves as `<prefix>vendor/mqtt.esm.js` (the pages
 * import it from `../vendor/mqtt.esm.js`; nothing comes from a CDN).
 *
 *   new HttpServer({ staticDir: WEB_DIR, … });
 *   const file = vendorFile('vendor/mqtt.esm.js');    // absolute path, or undefined
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: this file is src/bridge/web/paths.ts, or dist/bridge/web/paths.js once built. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The folder holding display/, console/ and shared/. */
export const WEB_DIR = join(PACKAGE_ROOT, 'web');

/** Page entry points, relative to WEB_DIR. */
export const WEB_PAGES = {
  round: 'display/index.html',
  board: 'display/board.html',
  console: 'console/index.html',
} as const;

const require = createRequire(import.meta.url);

/** The ES module build of MQTT.js for browsers. */
export const MQTT_BROWSER_BUNDLE = join(dirname(require.resolve('mqtt/package.json')), 'dist', 'mqtt.esm.js');

/** Files served beside WEB_DIR: path under the web prefix → file on disk. */
export const VENDOR_FILES: Readonly<Record<string, string>> = {
  'vendor/mqtt.esm.js': MQTT_BROWSER_BUNDLE,
};

/** The file to serve for a path under the web prefix (`vendor/mqtt.esm.js`), if it is a vendor file. */
export const vendorFile = (relative: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(VENDOR_FILES, relative) ? VENDOR_FILES[relative] : undefined;
