import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** One static file served under `/assets/<name>.<hash>.<ext>` with a year-long immutable cache. */
export interface Asset {
  /** The public path, e.g. `/assets/htmx.3f2a9c1b7d4e.js`. */
  url: string;
  body: Buffer;
  contentType: string;
}

const byFile = new Map<string, Asset>();
const byName = new Map<string, Asset>();

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/**
 * Registers an asset under a logical name (`dashboard.css`) at module load; its URL carries the
 * content's hash, so a changed file is a new URL and caches never serve a stale one.
 */
export function defineAsset(name: string, body: Buffer | string): Asset {
  const existing = byName.get(name);
  if (existing) {
    return existing;
  }
  const dot = name.lastIndexOf('.');
  const ext = name.slice(dot + 1);
  const contentType = TYPES[ext];
  if (dot <= 0 || contentType === undefined) {
    throw new Error(`asset ${name}: unknown type`);
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const asset: Asset = {
    url: `/assets/${name.slice(0, dot)}.${hash}.${ext}`,
    body: bytes,
    contentType,
  };
  byName.set(name, asset);
  byFile.set(asset.url.slice('/assets/'.length), asset);
  return asset;
}

/** An asset shipped by an npm package, e.g. `htmx.org/dist/htmx.min.js`. */
export function definePackageAsset(name: string, specifier: string): Asset {
  const path = createRequire(import.meta.url).resolve(specifier);
  return defineAsset(name, readFileSync(path));
}

export function assetByFile(file: string): Asset | undefined {
  return byFile.get(file);
}
