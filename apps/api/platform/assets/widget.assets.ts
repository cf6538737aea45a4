import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { LOADER_SCRIPT } from './loader.script.js';
import { WIDGET_PAGE_SCRIPT } from './widget-page.script.js';
import { WIDGET_STYLES } from './widget.styles.js';

/** A served file: its bytes, a content-hashed name and its Subresource Integrity hash. */
export interface WidgetAsset {
  name: string;
  body: Buffer;
  integrity: string;
}

function asset(stem: string, extension: string, text: string): WidgetAsset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return {
    name: `${stem}-${hash}.${extension}`,
    body,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  };
}

/** The page's script and stylesheet (hashed names, cached for a year) and the loader. */
export const WIDGET_ASSETS = {
  script: asset('widget', 'js', WIDGET_PAGE_SCRIPT),
  styles: asset('widget', 'css', WIDGET_STYLES),
  loader: asset('loader', 'js', LOADER_SCRIPT),
};

/** What a visitor downloads of JavaScript, gzipped (the budget is 30 KB). */
export function gzippedScriptBytes(): number {
  return gzipSync(WIDGET_ASSETS.script.body).length + gzipSync(WIDGET_ASSETS.loader.body).length;
}
