import type { OpenAPIObject } from '@nestjs/swagger';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A plain, script-free HTML reference of the API, rendered from the OpenAPI document. */
export function renderDocsPage(document: OpenAPIObject): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(
      item as Record<string, { summary?: string; tags?: string[]; security?: unknown[] }>,
    )) {
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td>` +
          `<td>${escape((op.tags ?? []).join(', '))}</td><td>${op.security ? 'bearer' : 'none'}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}</style></head>
<body><h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>${escape(document.info.description ?? '')}</p>
<p>Machine-readable description: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape(document.openapi)}).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Area</th><th>Auth</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></body></html>`;
}
