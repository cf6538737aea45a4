/**
 * The passkey forms' script, served as a static asset (the CSP allows no inline script). A
 * passkey form sits in a box rendered `hidden`, with `data-passkey` ("register" or
 * "authenticate") and `data-options` (where to POST for the ceremony's options); this script
 * shows it only where WebAuthn can work (a secure context, a domain name rather than an IP
 * address, a browser that has it) and, on submit, fetches the options, runs the ceremony through
 * SimpleWebAuthn's browser bundle, puts the answer in the form's `credential` field and submits
 * the form as usual. Nothing calls WebAuthn until the person presses the button. The options
 * request always answers 200 (`{options}` or `{message}`), so no normal flow logs an error.
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
  document.querySelectorAll('[data-passkey]').forEach(function (box) {
    var form = box.querySelector('form');
    var status = box.querySelector('[data-passkey-status]');
    var busy = false;
    box.hidden = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      fetch(box.getAttribute('data-options'), {
        method: 'POST',
        body: new URLSearchParams(new FormData(form)),
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
          return box.getAttribute('data-passkey') === 'register'
            ? lib.startRegistration({ optionsJSON: answer.options })
            : lib.startAuthentication({ optionsJSON: answer.options });
        })
        .then(function (credential) {
          form.querySelector('input[name="credential"]').value = JSON.stringify(credential);
          HTMLFormElement.prototype.submit.call(form);
        })
        .catch(function (error) {
          busy = false;
          var text = error && error.message && error.name === 'Error' ? error.message : '';
          status.textContent = text || box.getAttribute('data-failed');
        });
    });
  });
})();
`;
