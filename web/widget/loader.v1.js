(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) { return; }
  var widgetOrigin = new URL(script.src).origin;
  var pageOrigin = window.location.origin;
  var OPTIONS = ['from', 'to', 'amount', 'theme', 'accent'];
  var RELAYED = ['swap.created', 'swap.status_changed'];
  var frames = [];

  function mount(element) {
    if (element.getAttribute('data-swap-widget-mounted') === 'true') { return; }
    var key = element.getAttribute('data-key');
    if (!key) { return; }
    var url = new URL('/widget', widgetOrigin);
    url.searchParams.set('key', key);
    OPTIONS.forEach(function (name) {
      var value = element.getAttribute('data-' + name);
      if (value) { url.searchParams.set(name, value); }
    });
    url.searchParams.set('origin', pageOrigin);
    var frame = document.createElement('iframe');
    frame.src = url.toString();
    frame.title = element.getAttribute('data-title') || 'Swap widget';
    frame.setAttribute('allow', 'clipboard-write');
    frame.style.width = '100%';
    frame.style.minHeight = '420px';
    frame.style.border = '0';
    element.setAttribute('data-swap-widget-mounted', 'true');
    element.appendChild(frame);
    frames.push({ frame: frame, element: element });
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== widgetOrigin) { return; }
    var match = frames.filter(function (f) { return f.frame.contentWindow === event.source; })[0];
    var message = event.data;
    if (!match || !message || message.source !== 'swap-widget-frame' || typeof message.type !== 'string') { return; }
    if (message.type === 'resize') {
      var height = Number(message.data && message.data.height);
      if (height > 0 && height < 10000) { match.frame.style.height = Math.ceil(height) + 'px'; }
      return;
    }
    if (RELAYED.indexOf(message.type) === -1) { return; }
    var relayed = { source: 'swap-widget', type: message.type, data: message.data };
    match.element.dispatchEvent(new CustomEvent(message.type, { detail: message.data, bubbles: true }));
    window.postMessage(relayed, pageOrigin);
  });

  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-swap-widget]'), mount);
  }
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', mountAll);
  } else {
    mountAll();
  }
  window.SwapWidget = { mount: mount };
})();
