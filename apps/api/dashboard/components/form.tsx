import type { Children } from '@kitajs/html';
import { CSRF_FIELD } from '../common/dashboard.csrf.js';
import type { PageContext } from '../common/dashboard-request.js';

/**
 * Every state-changing form: POST, with the CSRF token in a hidden field, so no form can forget
 * it. Works without script.
 */
export function Form({
  ctx,
  action,
  children,
  id,
  class: className,
  label,
}: {
  ctx: Pick<PageContext, 'csrfToken'>;
  action: string;
  children?: Children;
  id?: string;
  class?: string;
  /** An accessible name, where a page has several forms. */
  label?: string;
}): JSX.Element {
  return (
    <form method="post" action={action} id={id} class={className} aria-label={label}>
      <input type="hidden" name={CSRF_FIELD} value={ctx.csrfToken} />
      {children}
    </form>
  );
}
