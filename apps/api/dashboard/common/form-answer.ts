import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, mergeMap } from 'rxjs';
import { dashboardCookie, SESSION_COOKIE } from './cookies.js';
import { type FlashMessage, setFlash } from './flash.js';
import { retryAfterSeconds } from './retry-after.js';

/**
 * What a dashboard form post answers: a redirect (`303 See Other`, with a message for the next
 * page) or a page with its status. A handler returns one and `FormAnswerInterceptor` sends it, so
 * no handler takes the response or throws to redirect.
 */
export class FormAnswer {
  private constructor(
    /** Where a redirect goes, or null for a page. */
    readonly redirectTo: string | null,
    readonly page: JSX.Element | null,
    readonly status: number,
    readonly flash: FlashMessage | null,
    readonly retryAfterMs: number | null,
    /** A JSON body instead of a page (a script's request). */
    readonly json: unknown = null,
    /** The session cookie: a new token, null to clear it, undefined to leave it. */
    readonly session?: string | null,
  ) {}

  /**
   * The same answer, setting the session cookie to `token` (a session started or given a new
   * id) or clearing it (null: signed out).
   */
  withSession(token: string | null): FormAnswer {
    return new FormAnswer(
      this.redirectTo,
      this.page,
      this.status,
      this.flash,
      this.retryAfterMs,
      this.json,
      token,
    );
  }

  /** `303 See Other` to `to` (a path on this site), leaving `flash` for the page it shows. */
  static redirect(to: string, flash: FlashMessage | null = null): FormAnswer {
    return new FormAnswer(to, null, 303, flash, null);
  }

  /** Back to `to` with a message of success. */
  static done(to: string, text: string): FormAnswer {
    return FormAnswer.redirect(to, { kind: 'success', text });
  }

  /** Back to `to` with a refusal as its message. */
  static refused(to: string, text: string): FormAnswer {
    return FormAnswer.redirect(to, { kind: 'error', text });
  }

  /** A page in answer to the post itself (a secret shown once, a form with its errors). */
  static page(
    page: JSX.Element,
    status = 200,
    options: { retryAfterMs?: number | null } = {},
  ): FormAnswer {
    return new FormAnswer(null, page, status, null, options.retryAfterMs ?? null);
  }

  /** A JSON answer, for a form a script sends. */
  static json(body: object, status = 200): FormAnswer {
    return new FormAnswer(null, null, status, null, null, body);
  }
}

/**
 * Ends a request before its handler with `answer` (a guard's refusal, shown as the handler's
 * would be); the dashboard's exception filter sends it.
 */
export class AnsweredInstead extends Error {
  constructor(readonly answer: FormAnswer) {
    super(`Answered with ${answer.status}`);
    this.name = 'AnsweredInstead';
  }
}

/**
 * Sends the `FormAnswer` a dashboard handler returns: its flash cookie, its status, and either
 * the redirect or the page (with `Retry-After` where it says). Anything else passes as it is.
 */
@Injectable()
export class FormAnswerInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    return next
      .handle()
      .pipe(
        mergeMap((result: unknown) =>
          result instanceof FormAnswer
            ? writeFormAnswer(result, req, res)
            : Promise.resolve(result),
        ),
      );
  }
}

/** Sets what `answer` says on `res` (flash, status, headers) and answers the body to send. */
export async function writeFormAnswer(
  answer: FormAnswer,
  req: Request,
  res: Response,
): Promise<string> {
  if (answer.session === null) {
    res.clearCookie(SESSION_COOKIE, dashboardCookie(req));
  } else if (answer.session !== undefined) {
    res.cookie(SESSION_COOKIE, answer.session, dashboardCookie(req));
  }
  if (answer.flash) {
    setFlash(req, res, answer.flash);
  }
  if (answer.retryAfterMs !== null) {
    res.setHeader('Retry-After', retryAfterSeconds(answer.retryAfterMs));
  }
  res.status(answer.status);
  if (answer.redirectTo !== null) {
    res.location(answer.redirectTo);
    return '';
  }
  if (answer.json !== null) {
    res.type('json');
    return JSON.stringify(answer.json);
  }
  return (await answer.page) ?? '';
}
