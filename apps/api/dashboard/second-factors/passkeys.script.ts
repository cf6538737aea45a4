/**
 * The passkey forms' script, served as a static asset (the CSP allows no inline script). A
 * passkey form is rendered `hidden`, with `data-passkey` ("register" or "authenticate") and
 * `data-options` (where to POST for the ceremony's options); this script shows it only where the
 * browser has WebAuthn and, on submit, fetches the options, runs the ceremony through
 * SimpleWebAuthn's browser bundle, puts the answer in the form's `credential` field and submits
 * the form as usual. Nothing calls WebAuthn until the person presses the button. The options
 * request always answers 200 (`{options}` or `{message}`), so no normal flow logs an error.
 */
export const PASSKEYS_SCRIPT = `'use strict';
(function () {
  var lib = window.SimpleWebAuthnBrowser;
  if (!lib || !lib.browserSupportsWebAuthn()) {
    return;
  }
  document.querySelectorAll('form[data-passkey]').forEach(function (form) {
    var status = form.querySelector('[data-passkey-status]');
    var busy = false;
    form.hidden = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      fetch(form.getAttribute('data-options'), {
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
          return form.getAttribute('data-passkey') === 'register'
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
          status.textContent = text || form.getAttribute('data-failed');
        });
    });
  });
})();
`;
