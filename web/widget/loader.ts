/**
 * `/widget.js`: mounts the hosted widget in every `[data-swap-widget]` element of the page, sizes
 * the frame to its content, and relays the widget's events to the page. It holds no origin of
 * its own (it takes the one it was loaded from), so its bytes, and its Subresource Integrity
 * hash, are the same on every server. `/widget/v1.js` is version 1 of it, frozen byte for byte
 * (`loader.v1.js`), since partners pin its hash.
 */
import type { FrameMessage } from './messages.js';

const OPTIONS = ['from', 'to', 'amount', 'theme', 'accent'];
const RELAYED = ['swap.created', 'swap.status_changed'];

interface Mounted {
  frame: HTMLIFrameElement;
  element: Element;
}

declare global {
  interface Window {
    SwapWidget?: { mount: (element: Element) => void };
  }
}

function isFrameMessage(data: unknown): data is FrameMessage {
  const message = data as Partial<FrameMessage> | null;
  return (
    typeof message === 'object' &&
    message !== null &&
    message.source === 'swap-widget-frame' &&
    typeof message.type === 'string'
  );
}

function start(script: HTMLScriptElement): void {
  const widgetOrigin = new URL(script.src).origin;
  const pageOrigin = window.location.origin;
  const frames: Mounted[] = [];

  function mount(element: Element): void {
    if (element.getAttribute('data-swap-widget-mounted') === 'true') {
      return;
    }
    const key = element.getAttribute('data-key');
    if (!key) {
      return;
    }
    const url = new URL('/widget', widgetOrigin);
    url.searchParams.set('key', key);
    for (const name of OPTIONS) {
      const value = element.getAttribute(`data-${name}`);
      if (value) {
        url.searchParams.set(name, value);
      }
    }
    url.searchParams.set('origin', pageOrigin);
    const frame = document.createElement('iframe');
    frame.src = url.toString();
    frame.title = element.getAttribute('data-title') || 'Swap widget';
    frame.setAttribute('allow', 'clipboard-write');
    frame.style.width = '100%';
    frame.style.minHeight = '420px';
    frame.style.border = '0';
    element.setAttribute('data-swap-widget-mounted', 'true');
    element.appendChild(frame);
    frames.push({ frame, element });
  }

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.origin !== widgetOrigin) {
      return;
    }
    const match = frames.find((f) => f.frame.contentWindow === event.source);
    const message = event.data;
    if (!match || !isFrameMessage(message)) {
      return;
    }
    if (message.type === 'resize') {
      const height = Number((message.data as { height?: unknown } | undefined)?.height);
      if (height > 0 && height < 10000) {
        match.frame.style.height = `${Math.ceil(height)}px`;
      }
      return;
    }
    if (!RELAYED.includes(message.type)) {
      return;
    }
    const relayed = { source: 'swap-widget', type: message.type, data: message.data };
    match.element.dispatchEvent(
      new CustomEvent(message.type, { detail: message.data, bubbles: true }),
    );
    window.postMessage(relayed, pageOrigin);
  });

  function mountAll(): void {
    document.querySelectorAll('[data-swap-widget]').forEach(mount);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', mountAll);
  } else {
    mountAll();
  }
  window.SwapWidget = { mount };
}

const script = document.currentScript;
if (script instanceof HTMLScriptElement && script.src) {
  start(script);
}
