/**
 * The passkey forms' script, served as a static asset (the CSP allows no inline script). A
 * passkey form sits in a box rendered `hidden`, with `data-passkey` ("register" or
 * "authenticate") and `data-options` (where to POST for the ceremony's options); this script
 * shows it only where WebAuthn can work (a secure context, a domain name rather than an IP
 * address, a browser that has it) and, on submit, fetches the options, runs the ceremony through
 * SimpleWebAuthn's browser bundle, puts the answer in the form's `credential` field and submits
 * the form as usual. Nothing calls WebAuthn until the person presses the button. The options
 * request always answers 200 (`{options}` or `{message}`), so no normal flow logs an error.
 *
 * A "Confirm with a passkey" control inside a sensitive form (`data-passkey-confirm`, rendered
 * `hidden` with its own button) re-authenticates instead: on a click it asks `data-options` for
 * the ceremony (with the CSRF token of the form around it), runs it, and posts the answer with
 * `data-next` to `data-action` in a form of its own, which comes back to the page. The script
 * may be included more than once on a page: each element is set up once.
 */
export const PASSKEYS_SCRIPT = `'use strict';
(function () {
  var lib = window.SimpleWebAuthnBrowser;
  var host = window.location.hostname;
  if (
    !lib ||
    !window.isSecureContext ||
    /^[0-9.]+$/.test(host) ||
    host.charAt(0) === '[' ||
    !lib.browserSupportsWebAuthn()
  ) {
    return;
  }
  function firstTime(element) {
    if (element.hasAttribute('data-passkey-ready')) {
      return false;
    }
    element.setAttribute('data-passkey-ready', '');
    element.hidden = false;
    return true;
  }
  // Runs a ceremony: the options from the box's data-options, then the browser's prompt.
  function ceremony(box, body, kind) {
    return fetch(box.getAttribute('data-options'), {
      method: 'POST',
      body: body,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    })
      .then(function (res) {
        return res.json();
      })
      .then(function (answer) {
        if (!answer.options) {
          throw new Error(answer.message || '');
        }
        return kind === 'register'
          ? lib.startRegistration({ optionsJSON: answer.options })
          : lib.startAuthentication({ optionsJSON: answer.options });
      });
  }
  function failed(box, status, error) {
    var text = error && error.message && error.name === 'Error' ? error.message : '';
    status.textContent = text || box.getAttribute('data-failed');
  }
  document.querySelectorAll('[data-passkey]').forEach(function (box) {
    if (!firstTime(box)) {
      return;
    }
    var form = box.querySelector('form');
    var status = box.querySelector('[data-passkey-status]');
    var busy = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      ceremony(box, new URLSearchParams(new FormData(form)), box.getAttribute('data-passkey'))
        .then(function (credential) {
          form.querySelector('input[name="credential"]').value = JSON.stringify(credential);
          HTMLFormElement.prototype.submit.call(form);
        })
        .catch(function (error) {
          busy = false;
          failed(box, status, error);
        });
    });
  });
  document.querySelectorAll('[data-passkey-confirm]').forEach(function (box) {
    if (!firstTime(box)) {
      return;
    }
    var csrf = box.closest('form').querySelector('input[name="_csrf"]').value;
    var status = box.querySelector('[data-passkey-status]');
    var busy = false;
    box.querySelector('button').addEventListener('click', function () {
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      ceremony(box, new URLSearchParams({ _csrf: csrf }), 'authenticate')
        .then(function (credential) {
          var post = document.createElement('form');
          post.method = 'post';
          post.action = box.getAttribute('data-action');
          post.hidden = true;
          [
            ['_csrf', csrf],
            ['next', box.getAttribute('data-next')],
            ['credential', JSON.stringify(credential)],
          ].forEach(function (pair) {
            var input = document.createElement('input');
            input.type = 'hidden';
            input.name = pair[0];
            input.value = pair[1];
            post.appendChild(input);
          });
          document.body.appendChild(post);
          HTMLFormElement.prototype.submit.call(post);
        })
        .catch(function (error) {
          busy = false;
          failed(box, status, error);
        });
    });
  });
})();
`;
