import type { WidgetText } from './widget.text.js';

/**
 * What the widget page hands its script in the `widget-config` JSON block; the script
 * (`web/widget/widget.ts`) reads it with this type. No import beyond the text, so the browser's
 * type-check takes in nothing of the server.
 */
export interface WidgetConfig {
  key: string;
  mode: 'live' | 'test';
  from: string | null;
  to: string | null;
  amount: string | null;
  /** The embedding page's origin, already checked against the key's list; null: post nothing. */
  parentOrigin: string | null;
  text: WidgetText;
}
