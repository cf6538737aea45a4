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
import type * as SimpleWebAuthnBrowser from '@simplewebauthn/browser';

type Ceremony = 'register' | 'authenticate';

declare global {
  interface Window {
    /** Set by SimpleWebAuthn's browser bundle, loaded before this script. */
    SimpleWebAuthnBrowser?: typeof SimpleWebAuthnBrowser;
  }
}

interface OptionsAnswer {
  options?: unknown;
  message?: string;
}

function firstTime(element: HTMLElement): boolean {
  if (element.hasAttribute('data-passkey-ready')) {
    return false;
  }
  element.setAttribute('data-passkey-ready', '');
  element.hidden = false;
  return true;
}

function required<T extends Element>(found: T | null, what: string): T {
  if (!found) {
    throw new Error(`passkeys: no ${what}`);
  }
  return found;
}

function setUp(lib: typeof SimpleWebAuthnBrowser): void {
  /** Runs a ceremony: the options from the box's data-options, then the browser's prompt. */
  async function ceremony(box: HTMLElement, body: URLSearchParams, kind: Ceremony) {
    const res = await fetch(box.getAttribute('data-options') ?? '', {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    const answer = (await res.json()) as OptionsAnswer;
    if (!answer.options) {
      throw new Error(answer.message || '');
    }
    return kind === 'register'
      ? lib.startRegistration({
          optionsJSON:
            answer.options as SimpleWebAuthnBrowser.PublicKeyCredentialCreationOptionsJSON,
        })
      : lib.startAuthentication({
          optionsJSON:
            answer.options as SimpleWebAuthnBrowser.PublicKeyCredentialRequestOptionsJSON,
        });
  }

  function failed(box: HTMLElement, status: Element, error: unknown): void {
    const text = error instanceof Error && error.name === 'Error' ? error.message : '';
    status.textContent = text || box.getAttribute('data-failed');
  }

  document.querySelectorAll<HTMLElement>('[data-passkey]').forEach((box) => {
    if (!firstTime(box)) {
      return;
    }
    const form = required(box.querySelector('form'), 'form');
    const status = required(box.querySelector('[data-passkey-status]'), 'status');
    const kind: Ceremony =
      box.getAttribute('data-passkey') === 'register' ? 'register' : 'authenticate';
    let busy = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      ceremony(
        box,
        new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
        kind,
      )
        .then((credential) => {
          required(
            form.querySelector<HTMLInputElement>('input[name="credential"]'),
            'credential field',
          ).value = JSON.stringify(credential);
          HTMLFormElement.prototype.submit.call(form);
        })
        .catch((error: unknown) => {
          busy = false;
          failed(box, status, error);
        });
    });
  });

  document.querySelectorAll<HTMLElement>('[data-passkey-confirm]').forEach((box) => {
    if (!firstTime(box)) {
      return;
    }
    const csrf = required(
      required(box.closest('form'), 'form').querySelector<HTMLInputElement>('input[name="_csrf"]'),
      'CSRF field',
    ).value;
    const status = required(box.querySelector('[data-passkey-status]'), 'status');
    let busy = false;
    required(box.querySelector('button'), 'button').addEventListener('click', () => {
      if (busy) {
        return;
      }
      busy = true;
      status.textContent = '';
      ceremony(box, new URLSearchParams({ _csrf: csrf }), 'authenticate')
        .then((credential) => {
          const post = document.createElement('form');
          post.method = 'post';
          post.action = box.getAttribute('data-action') ?? '';
          post.hidden = true;
          for (const [name, value] of [
            ['_csrf', csrf],
            ['next', box.getAttribute('data-next') ?? ''],
            ['credential', JSON.stringify(credential)],
          ]) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = name;
            input.value = value;
            post.appendChild(input);
          }
          document.body.appendChild(post);
          HTMLFormElement.prototype.submit.call(post);
        })
        .catch((error: unknown) => {
          busy = false;
          failed(box, status, error);
        });
    });
  });
}

const lib = window.SimpleWebAuthnBrowser;
const host = window.location.hostname;
if (
  lib &&
  window.isSecureContext &&
  !/^[0-9.]+$/.test(host) &&
  !host.startsWith('[') &&
  lib.browserSupportsWebAuthn()
) {
  setUp(lib);
}
