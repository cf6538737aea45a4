import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files the pages load, as `npm run build` writes them (`web/build.js` → `dist/web/`): every
 * name here must be in the build's manifest, or the api does not start.
 */
export const ASSET_NAMES = [
  'favicon.svg',
  'dashboard.css',
  'htmx.js',
  'copy.js',
  'simplewebauthn-browser.js',
  'passkeys.js',
  'widget.css',
  'widget.js',
  'loader.js',
  'loader-v1.js',
] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

/** One static file served under `/assets/<name>.<hash>.<ext>` with a year-long immutable cache. */
export interface Asset {
  /** The public path, e.g. `/assets/htmx.3f2a9c1b7d4e.js`. */
  url: string;
  body: Buffer;
  contentType: string;
  /** Its Subresource Integrity hash, `sha384-…`. */
  integrity: string;
}

interface ManifestEntry {
  file: string;
  contentType: string;
  integrity: string;
}

interface Registry {
  byName: Map<string, Asset>;
  byFile: Map<string, Asset>;
}

/** `dist/web` beside the nearest `package.json`: the same from the sources and from `dist/`. */
function webBuildDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error('assets: no package.json above the api');
    }
    dir = parent;
  }
  return join(dir, 'dist', 'web');
}

let registry: Registry | null = null;

/** Reads the build's manifest and files once; a missing build or name is an error. */
export function loadAssets(): Registry {
  if (registry) {
    return registry;
  }
  const dir = webBuildDir();
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`assets: ${manifestPath} is missing; run npm run build`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestEntry>;
  const loaded: Registry = { byName: new Map(), byFile: new Map() };
  for (const name of ASSET_NAMES) {
    const entry = manifest[name];
    if (!entry) {
      throw new Error(`assets: ${manifestPath} has no ${name}; run npm run build`);
    }
    const asset: Asset = {
      url: `/assets/${entry.file}`,
      body: readFileSync(join(dir, entry.file)),
      contentType: entry.contentType,
      integrity: entry.integrity,
    };
    loaded.byName.set(name, asset);
    loaded.byFile.set(entry.file, asset);
  }
  registry = loaded;
  return loaded;
}

export function asset(name: AssetName): Asset {
  const found = loadAssets().byName.get(name);
  if (!found) {
    throw new Error(`assets: no ${name}`);
  }
  return found;
}

export function assetByFile(file: string): Asset | undefined {
  return loadAssets().byFile.get(file);
}
