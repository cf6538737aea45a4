/** The hosted widget's stylesheet: light by default, dark with `theme=dark`, `--accent` from the key's page. */
export const WIDGET_STYLES = `
:root{--accent:#2563eb;--bg:#ffffff;--fg:#111827;--muted:#4b5563;--line:#9ca3af;--field:#ffffff;--error:#b91c1c;--ok:#047857;--banner:#fef3c7;--banner-fg:#78350f}
:root[data-theme=dark]{--bg:#111827;--fg:#f9fafb;--muted:#d1d5db;--line:#6b7280;--field:#1f2937;--error:#fca5a5;--ok:#6ee7b7;--banner:#78350f;--banner-fg:#fef3c7}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:480px;margin:0 auto;padding:16px}
h1{font-size:1.25rem;margin:0 0 12px}
h2{font-size:1.05rem;margin:0 0 12px}
.banner{background:var(--banner);color:var(--banner-fg);padding:6px 10px;border-radius:6px;margin-bottom:12px;font-size:.9rem}
label{display:block;font-weight:600;margin:10px 0 4px}
input,select{width:100%;padding:10px;border:1px solid var(--line);border-radius:6px;background:var(--field);color:var(--fg);font:inherit}
fieldset{border:1px solid var(--line);border-radius:6px;margin:12px 0;padding:6px 10px}
fieldset label{display:inline-flex;gap:6px;font-weight:400;margin:4px 12px 4px 0}
fieldset input{width:auto}
.hint{color:var(--muted);font-size:.875rem;margin:4px 0}
.error{color:var(--error);min-height:1.2em;margin:6px 0}
.ok{color:var(--ok)}
.quote{min-height:1.4em;margin:10px 0}
button{font:inherit;padding:10px 16px;border-radius:6px;border:1px solid var(--accent);cursor:pointer;margin:8px 8px 0 0}
button.primary{background:var(--accent);color:var(--accent-fg,#ffffff)}
button.secondary{background:transparent;color:var(--fg);border-color:var(--line)}
button:disabled{opacity:.6;cursor:not-allowed}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
code{display:block;word-break:break-all;padding:8px;border:1px dashed var(--line);border-radius:6px;margin:6px 0}
.qr{display:block;width:180px;height:180px;background:#ffffff;padding:8px;border-radius:6px;margin:10px 0}
.status{font-size:1.1rem}
[hidden]{display:none!important}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
