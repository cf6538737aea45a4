// Plain ESM, run by `npm run build` (and by test/build-if-stale.js): builds the browser's files
// of `web/` into `dist/web/`, each named `<name>.<hash>.<ext>`, and writes `dist/web/manifest.json`,
// the one asset registry the api reads (apps/api/platform/assets/asset.registry.ts). esbuild
// bundles and minifies the scripts (TypeScript) and stylesheets; a few files are served as they
// are: the frozen loader v1 (partners pin its Subresource Integrity hash), the favicon, and the
// browser bundles of htmx and SimpleWebAuthn from their npm packages. The hash is the first 12 hex
// digits of the served bytes' SHA-256; `integrity` is their SHA-384 (docs/decisions.md, "Browser
// code as real sources, built by esbuild").
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'dist', 'web');
const require = createRequire(import.meta.url);

/** Built by esbuild: served name → source. */
const SCRIPTS = {
  'widget.js': 'web/widget/widget.ts',
  'loader.js': 'web/widget/loader.ts',
  'passkeys.js': 'web/dashboard/passkeys.ts',
  'copy.js': 'web/dashboard/copy.ts',
};
const STYLES = {
  'widget.css': 'web/widget/widget.css',
  'dashboard.css': 'web/dashboard/dashboard.css',
};

/** Served byte for byte: served name → path. */
function copied() {
  const webAuthn = require.resolve('@simplewebauthn/browser');
  return {
    'loader-v1.js': join(ROOT, 'web/widget/loader.v1.js'),
    'favicon.svg': join(ROOT, 'web/favicon.svg'),
    'htmx.js': require.resolve('htmx.org/dist/htmx.min.js'),
    // The package exports only its entry points: the UMD bundle (it sets
    // `window.SimpleWebAuthnBrowser`) sits beside the resolved entry.
    'simplewebauthn-browser.js': join(
      dirname(webAuthn),
      '..',
      'dist',
      'bundle',
      'index.umd.min.js',
    ),
  };
}

const TYPES = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Each entry's bytes, as esbuild builds them in memory. */
async function bundle(entries, options) {
  const names = Object.keys(entries);
  const result = await build({
    entryPoints: names.map((name) => ({
      in: join(ROOT, entries[name]),
      out: name.slice(0, name.lastIndexOf('.')),
    })),
    outdir: OUT,
    bundle: true,
    minify: true,
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'warning',
    ...options,
  });
  return names.map((name) => {
    const file = result.outputFiles.find((output) => output.path === join(OUT, name));
    if (!file) {
      throw new Error(`web build: esbuild gave no ${name}`);
    }
    return [name, Buffer.from(file.contents)];
  });
}

export async function buildWeb() {
  const files = [
    ...(await bundle(SCRIPTS, { format: 'iife', target: 'es2020' })),
    ...(await bundle(STYLES, { target: 'chrome100' })),
    ...Object.entries(copied()).map(([name, path]) => [name, readFileSync(path)]),
  ];
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const manifest = {};
  for (const [name, body] of files) {
    const dot = name.lastIndexOf('.');
    const ext = name.slice(dot + 1);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const file = `${name.slice(0, dot)}.${hash}.${ext}`;
    writeFileSync(join(OUT, file), body);
    manifest[name] = {
      file,
      contentType: TYPES[ext],
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
    };
  }
  writeFileSync(join(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await buildWeb();
}
