import { WIDGET_ASSETS } from '../../platform/assets/widget.assets.js';
import type { WidgetTheme } from '#app/widgets';

/** The loader version partners pin: its path and its Subresource Integrity hash. */
export const PINNED_LOADER = { path: '/widget/v1.js', integrity: WIDGET_ASSETS.loader.integrity };

function attribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The HTML a partner pastes into a page of one of the key's origins: the element the loader
 * mounts the widget in (with the chosen theme and accent) and the pinned loader, served from
 * `serviceOrigin`.
 */
export function widgetSnippet(
  serviceOrigin: string,
  key: string,
  options: { theme: WidgetTheme; accent: string | null },
): string {
  const data = [
    `data-key="${attribute(key)}"`,
    ...(options.theme === 'dark' ? ['data-theme="dark"'] : []),
    ...(options.accent ? [`data-accent="${attribute(options.accent)}"`] : []),
  ];
  return [
    `<div data-swap-widget ${data.join(' ')}></div>`,
    '<script',
    `  src="${attribute(serviceOrigin)}${PINNED_LOADER.path}"`,
    `  integrity="${PINNED_LOADER.integrity}"`,
    '  crossorigin="anonymous"',
    '></script>',
  ].join('\n');
}
