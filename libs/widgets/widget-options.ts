const ACCENT = /^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$/;

export type WidgetTheme = 'light' | 'dark';

/** `dark` is dark; anything else, the default `light`. */
export function widgetTheme(value: unknown): WidgetTheme {
  return value === 'dark' ? 'dark' : 'light';
}

/**
 * The accent colour the widget takes (`theme`'s companion option): `#abc` and `abc` become
 * `#aabbcc`; anything else is no accent (null).
 */
export function widgetAccent(value: unknown): string | null {
  if (typeof value !== 'string' || !ACCENT.test(value)) {
    return null;
  }
  const hex = value.replace('#', '').toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}
