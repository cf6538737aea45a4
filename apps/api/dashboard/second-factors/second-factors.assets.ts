import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineAsset } from '../../platform/assets/asset.registry.js';
import { PASSKEYS_SCRIPT } from './passkeys.script.js';

/**
 * SimpleWebAuthn's browser bundle (it sets `window.SimpleWebAuthnBrowser`). The package exports
 * only its entry points, so the bundle is found beside the resolved entry.
 */
function webAuthnBrowserBundle(): Buffer {
  const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  return readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'));
}

export const WEBAUTHN_BROWSER = defineAsset('simplewebauthn-browser.js', webAuthnBrowserBundle());
export const PASSKEYS_JS = defineAsset('passkeys.js', PASSKEYS_SCRIPT);
