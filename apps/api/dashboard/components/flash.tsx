import type { Children } from '@kitajs/html';
import type { FlashMessage } from '../common/flash.js';

/** The one-time message left by the previous request (success, error or info). */
export function FlashBanner({ flash }: { flash: FlashMessage | null }): JSX.Element {
  if (!flash) {
    return '';
  }
  return (
    <div class={`flash ${flash.kind}`} role={flash.kind === 'error' ? 'alert' : 'status'} safe>
      {flash.text}
    </div>
  );
}

/** A boxed remark on a page ("what to do next", "the secret is shown once"). */
export function Notice({ children, title }: { children?: Children; title?: string }): JSX.Element {
  return (
    <section class="notice" aria-label={title}>
      {title ? <strong safe>{title}</strong> : ''}
      {children}
    </section>
  );
}

/** An error message at the top of a form that was refused. */
export function FormError({ message }: { message: string | null | undefined }): JSX.Element {
  return message ? (
    <div class="flash error" role="alert" safe>
      {message}
    </div>
  ) : (
    ''
  );
}
