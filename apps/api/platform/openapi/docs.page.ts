import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The reference UI is Swagger UI from the `swagger-ui-dist` package (Apache-2.0), served by the api
 * itself: no CDN, so it works offline (docs/decisions.md, "The API descriptions: two documents,
 * errors from the code table, Swagger UI at /docs").
 */
const SWAGGER_UI_DIR = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/** Starts Swagger UI on the partner document; a file of its own, so no inline script is needed. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'list',
    validatorUrl: null,
  });
});
`;

/**
 * Scripts and styles from this origin only (Swagger UI sets some styles from script, hence
 * `'unsafe-inline'` for styles), images from here or inline SVG, fetches to here only.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function once(load: () => string): () => string {
  let loaded: string | null = null;
  return () => (loaded ??= load());
}

export const DOCS_ASSETS = {
  'swagger-ui.css': once(() => readFileSync(join(SWAGGER_UI_DIR, 'swagger-ui.css'), 'utf8')),
  'swagger-ui-bundle.js': once(() =>
    readFileSync(join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), 'utf8'),
  ),
  'docs.js': () => INIT_SCRIPT,
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The reference page: Swagger UI renders the partner document; without JavaScript, a plain table
 * of the operations shows instead.
 */
export function renderDocsPage(document: OpenAPIObject): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(
      item as Record<string, { summary?: string; security?: unknown[] }>,
    )) {
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td>` +
          `<td>${escape(op.summary ?? '')}</td><td>${op.security?.length ? 'credential' : 'none'}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<script src="/docs/assets/swagger-ui-bundle.js" defer></script>
<script src="/docs/assets/docs.js" defer></script>
</head><body>
<div id="swagger-ui"></div>
<noscript><h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>Machine-readable description: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape(document.openapi)}).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Auth</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></noscript></body></html>`;
}
