/** What the widget's frame posts to the page that embeds it (read by the loader). */
export interface FrameMessage {
  source: 'swap-widget-frame';
  /** `resize`, `swap.created` or `swap.status_changed`. */
  type: string;
  data: unknown;
}
