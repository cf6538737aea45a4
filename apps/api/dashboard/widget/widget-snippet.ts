import { asset } from '../../platform/assets/asset.registry.js';
import type { WidgetTheme } from '#app/widgets';

/** The loader version partners pin: its path and its Subresource Integrity hash (never changes). */
export function pinnedLoader(): { path: string; integrity: string } {
  return { path: '/widget/v1.js', integrity: asset('loader-v1.js').integrity };
}

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
  const pinned = pinnedLoader();
  return [
    `<div data-swap-widget ${data.join(' ')}></div>`,
    '<script',
    `  src="${attribute(serviceOrigin)}${pinned.path}"`,
    `  integrity="${pinned.integrity}"`,
    '  crossorigin="anonymous"',
    '></script>',
  ].join('\n');
}
