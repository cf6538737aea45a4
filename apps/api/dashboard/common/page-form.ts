import { AppError, ErrorCode } from '#app/errors';
import { FormAnswer } from './form-answer.js';

/** What is wrong with a refused form: a message by field name, `form` for the whole form. */
export type FormProblems = Partial<Record<string, string>>;

/** The typed fields, checked: the values to submit, or the problems to show. */
export type Checked<V> = { ok: true; values: V } | { ok: false; problems: FormProblems };

/** `values` when `problems` names none, else the problems. */
export function checked<V>(values: V, problems: FormProblems): Checked<V> {
  return Object.values(problems).some((problem) => problem !== undefined)
    ? { ok: false, problems }
    : { ok: true, values };
}

/** How a refused form answers. */
export type FormRefusal =
  /**
   * Its page again, showing the problems beside the fields (400 unless `status` says), or
   * another answer where a problem calls for one (a link used meanwhile).
   */
  | {
      again: (
        problems: FormProblems,
        /** The service's refusal, when it was the service that refused. */
        error: AppError | null,
      ) => JSX.Element | FormAnswer | Promise<JSX.Element | FormAnswer>;
      status?: number;
    }
  /** Back to a page (303) with the problem as that page's message. */
  | { back: string };

/** One dashboard form: check the fields, make the one service call, answer. */
export interface PageForm<V, R> {
  /** The fields against the libs' rules; absent when the service checks everything. */
  check?: () => Checked<V>;
  /** The one service call. */
  submit: (values: V) => Promise<R>;
  /**
   * The service's refusals the person can act on in the form (default: `invalid_request`);
   * any other error goes to the error page.
   */
  refusals?: readonly ErrorCode[] | ((error: AppError) => boolean);
  /** The answer to a success: mostly `FormAnswer.done` (303 with a message), or a page. */
  done: (result: R) => FormAnswer | Promise<FormAnswer>;
  refused: FormRefusal;
}

function refusable(error: unknown, refusals: PageForm<unknown, unknown>['refusals']): boolean {
  if (!(error instanceof AppError)) {
    return false;
  }
  if (typeof refusals === 'function') {
    return refusals(error);
  }
  return (refusals ?? [ErrorCode.InvalidRequest]).includes(error.code);
}

/** The problems of a service's refusal: the field it names, else the whole form. */
function problemsOf(error: AppError): FormProblems {
  return { [error.param ?? 'form']: error.message };
}

/** A refused form's answer: its page again with the problems, or back with the first one. */
async function refuseForm(
  refusal: FormRefusal,
  problems: FormProblems,
  error: AppError | null = null,
): Promise<FormAnswer> {
  if ('back' in refusal) {
    const first = Object.values(problems).find((problem) => problem !== undefined) ?? '';
    return FormAnswer.refused(refusal.back, first);
  }
  const again = await refusal.again(problems, error);
  return again instanceof FormAnswer ? again : FormAnswer.page(again, refusal.status ?? 400);
}

/**
 * The dashboard's form handling, in one place: the fields are checked (a refused form is shown
 * again with its problems, or goes back with one as the message), then the one service call is
 * made; a refusal of the service that the person can act on is answered the same way, any other
 * error becomes the error page; a success answers what `done` says.
 */
export async function submitForm<V, R>(form: PageForm<V, R>): Promise<FormAnswer> {
  const input = form.check ? form.check() : ({ ok: true, values: undefined as V } as const);
  if (!input.ok) {
    return refuseForm(form.refused, input.problems);
  }
  let result: R;
  try {
    result = await form.submit(input.values);
  } catch (error: unknown) {
    if (!refusable(error, form.refusals)) {
      throw error;
    }
    return refuseForm(form.refused, problemsOf(error as AppError), error as AppError);
  }
  return form.done(result);
}
