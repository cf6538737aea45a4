/** The dashboard's one stylesheet: system fonts, visible focus, AA contrast in both schemes. */
export const DASHBOARD_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --panel: #ffffff; --text: #1b1f24; --muted: #4d5561; --line: #d5d9e0;
  --accent: #0b5cad; --accent-text: #ffffff; --danger: #a4161a; --ok: #17663a;
  --test-bg: #fff4d6; --test-text: #5c3b00; --focus: #f59f00;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418; --panel: #1a1f25; --text: #e8ebef; --muted: #aab3bf; --line: #333b45;
    --accent: #6cb0ff; --accent-text: #0b1520; --danger: #ff8a8a; --ok: #7ddf9f;
    --test-bg: #3d2e05; --test-text: #ffe3a1;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip-link { position: absolute; left: -9999px; }
.skip-link:focus { left: 1rem; top: 1rem; background: var(--panel); padding: .5rem; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  padding: .75rem 1.5rem; background: var(--panel); border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; }
header.top .who { color: var(--muted); }
.top-actions { display: flex; gap: .75rem; align-items: center; }
.top-actions form { margin: 0; }
nav.main ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem; margin: 0; padding: .5rem 1.5rem;
  background: var(--panel); border-bottom: 1px solid var(--line); }
nav.main a { display: block; padding: .35rem .7rem; border-radius: 6px; text-decoration: none; color: var(--text); }
nav.main a[aria-current="page"] { background: var(--accent); color: var(--accent-text); }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .75rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1.25rem; margin-bottom: 1rem; }
.field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: 1rem; }
.field label { font-weight: 600; }
.field .hint { color: var(--muted); font-size: .9rem; margin: 0; }
.field .error { color: var(--danger); font-size: .9rem; margin: 0; }
input, select, textarea { font: inherit; color: var(--text); background: var(--panel); padding: .5rem .6rem;
  border: 1px solid var(--muted); border-radius: 6px; }
input[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--danger); }
textarea.snippet { width: 100%; resize: vertical; }
.preview-layout { display: grid; grid-template-columns: minmax(0, 28rem) minmax(0, 1fr); gap: 1.5rem;
  align-items: start; margin-top: 1rem; }
@media (max-width: 60rem) { .preview-layout { grid-template-columns: minmax(0, 1fr); } }
.preview-layout h3 { margin-top: 0; }
iframe.widget-preview { display: block; width: 100%; height: 40rem; border: 1px solid var(--line);
  border-radius: 10px; background: var(--panel); }
ul.plain { list-style: none; margin: 0; padding: 0; }
button { font: inherit; cursor: pointer; padding: .5rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-text); }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button[role="switch"] { background: transparent; color: var(--text); border-color: var(--muted); }
button[role="switch"][aria-checked="true"] { background: var(--test-bg); color: var(--test-text); border-color: var(--test-text); }
.test-banner { background: var(--test-bg); color: var(--test-text); padding: .5rem 1.5rem; font-weight: 600; border-bottom: 1px solid var(--line); }
.flash { padding: .75rem 1rem; border-radius: 8px; margin-bottom: 1rem; border: 1px solid var(--line); background: var(--panel); }
.flash.success { border-left: 6px solid var(--ok); }
.flash.error { border-left: 6px solid var(--danger); }
.flash.info { border-left: 6px solid var(--accent); }
.notice { padding: .75rem 1rem; border-radius: 8px; background: var(--panel); border: 1px dashed var(--muted); margin-bottom: 1rem; }
table { width: 100%; border-collapse: collapse; background: var(--panel); }
caption { text-align: left; font-weight: 600; padding: .5rem 0; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td form { display: inline-flex; gap: .5rem; align-items: center; margin: 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; word-break: break-all; }
.muted { color: var(--muted); }
code.nowrap { white-space: nowrap; word-break: normal; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
fieldset.reauth { border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem 0; margin: 0 0 1rem; min-width: 0; }
fieldset.reauth legend { font-weight: 600; padding: 0 .25rem; }
fieldset.reauth .actions { margin-bottom: 1rem; }
.pager { display: flex; gap: 1rem; margin-top: 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1.25rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
form.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: .75rem 1rem; align-items: end; }
form.filters .field { margin: 0; }
form.export { display: flex; gap: .75rem; align-items: center; margin-bottom: 1rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem; margin-top: 1rem; }
figure.chart { margin: 0; }
figure.chart figcaption { font-weight: 600; margin-bottom: .25rem; }
figure.chart svg { width: 100%; height: 12rem; display: block; }
figure.chart .bar { fill: var(--accent); }
figure.chart .axis { stroke: var(--line); stroke-width: 1; }
figure.chart .tick { fill: var(--muted); font-size: 11px; }
.progress { margin-top: 1rem; }
.progress label { display: block; font-weight: 600; }
.progress progress { width: 100%; max-width: 32rem; height: 1.25rem; accent-color: var(--accent); }
ul.checklist { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
ul.checklist li { display: flex; flex-wrap: wrap; gap: .25rem .6rem; align-items: baseline; }
ul.checklist .tick { display: inline-block; width: 1.4rem; text-align: center; font-weight: 700; }
ul.checklist li.done .tick, ul.checklist li.done .state { color: var(--ok); }
ul.checklist .step { font-weight: 600; }
ul.checklist .how { flex-basis: 100%; padding-left: 2rem; font-size: .9rem; }
.code-block { position: relative; margin: .5rem 0 1rem; }
.code-block pre { margin: 0; padding: .75rem 1rem; overflow-x: auto; background: var(--bg); border: 1px solid var(--line);
  border-radius: 8px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; line-height: 1.45; }
.code-block pre code { word-break: normal; white-space: pre; }
.code-block .copy { margin-top: .35rem; }
.tab-list { display: none; gap: .25rem; margin: 1rem 0 .5rem; border-bottom: 1px solid var(--line); }
.tabs:has(.tab-radio) .tab-list { display: flex; }
.tab-radio { position: absolute; opacity: 0; width: 1px; height: 1px; }
.tab-list label { padding: .4rem .9rem; border: 1px solid var(--line); border-bottom: none; border-radius: 6px 6px 0 0;
  cursor: pointer; color: var(--muted); }
.tab-radio:checked + label { background: var(--panel); color: var(--text); font-weight: 600; border-color: var(--muted); }
.tab-radio:focus-visible + label { outline: 3px solid var(--focus); outline-offset: 2px; }
.tabs:has(#tab-curl:checked) #panel-sdk, .tabs:has(#tab-sdk:checked) #panel-curl { display: none; }
.tab-panel h3 { font-size: 1rem; margin: .75rem 0 .5rem; }
.helpers form { display: flex; gap: .5rem; align-items: end; margin: 0; }
form.inline-field { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: 1rem 0 0; }
form.inline-field .field { margin: 0; }
ul.landing-links { padding-left: 1.25rem; display: grid; gap: .5rem; }
`;
