import { DASHBOARD_CSS } from './dashboard.css.js';
import { defineAsset, definePackageAsset } from './asset.registry.js';

/** htmx from its npm package; it only enhances: every page and form works without it. */
export const HTMX = definePackageAsset('htmx.js', 'htmx.org/dist/htmx.min.js');
export const DASHBOARD_STYLES = defineAsset('dashboard.css', DASHBOARD_CSS);
/** Declared on every page, so browsers do not ask for a `/favicon.ico` that is not there. */
export const FAVICON = defineAsset(
  'favicon.svg',
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b5cad"/><path d="M9 12h12l-3-3m5 11H11l3 3" stroke="#fff" stroke-width="2.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>',
);
