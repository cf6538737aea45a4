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

/** A cookie an answer sets (a value, for `maxAge` ms or the browser's session) or clears (null). */
export interface CookieChange {
  name: string;
  value: string | null;
  maxAge?: number;
}

interface Parts {
  /** Where a redirect goes, or null for a page. */
  redirectTo: string | null;
  page: JSX.Element | null;
  /** A JSON body instead of a page (a script's request). */
  json: object | null;
  status: number;
  flash: FlashMessage | null;
  retryAfterMs: number | null;
  cookies: readonly CookieChange[];
}

const NOTHING: Omit<Parts, 'status'> = {
  redirectTo: null,
  page: null,
  json: null,
  flash: null,
  retryAfterMs: null,
  cookies: [],
};

/**
 * What a dashboard form post answers: a redirect (`303 See Other`, with a message for the next
 * page) or a page with its status, and the cookies it sets. A handler returns one and
 * `FormAnswerInterceptor` sends it, so no handler takes the response or throws to redirect.
 */
export class FormAnswer {
  private constructor(private readonly parts: Parts) {}

  get redirectTo(): string | null {
    return this.parts.redirectTo;
  }

  get page(): JSX.Element | null {
    return this.parts.page;
  }

  get status(): number {
    return this.parts.status;
  }

  get flash(): FlashMessage | null {
    return this.parts.flash;
  }

  /** `303 See Other` to `to` (a path on this site), leaving `flash` for the page it shows. */
  static redirect(to: string, flash: FlashMessage | null = null): FormAnswer {
    return new FormAnswer({ ...NOTHING, redirectTo: to, status: 303, flash });
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
    return new FormAnswer({ ...NOTHING, page, status, retryAfterMs: options.retryAfterMs ?? null });
  }

  /** A JSON answer, for a form a script sends. */
  static json(body: object, status = 200): FormAnswer {
    return new FormAnswer({ ...NOTHING, json: body, status });
  }

  /** The same answer, also setting (or, with null, clearing) a dashboard cookie. */
  withCookie(name: string, value: string | null, maxAge?: number): FormAnswer {
    return new FormAnswer({
      ...this.parts,
      cookies: [...this.parts.cookies, { name, value, maxAge }],
    });
  }

  /**
   * The same answer, setting the session cookie to `token` (a session started or given a new
   * id) or clearing it (null: signed out).
   */
  withSession(token: string | null): FormAnswer {
    return this.withCookie(SESSION_COOKIE, token);
  }

  /** Sets what the answer says on `res` (cookies, flash, status, headers); answers the body. */
  async write(req: Request, res: Response): Promise<string> {
    const { cookies, flash, retryAfterMs, status, redirectTo, json, page } = this.parts;
    for (const { name, value, maxAge } of cookies) {
      if (value === null) {
        res.clearCookie(name, dashboardCookie(req));
      } else {
        res.cookie(name, value, dashboardCookie(req, maxAge === undefined ? {} : { maxAge }));
      }
    }
    if (flash) {
      setFlash(req, res, flash);
    }
    if (retryAfterMs !== null) {
      res.setHeader('Retry-After', retryAfterSeconds(retryAfterMs));
    }
    res.status(status);
    if (redirectTo !== null) {
      res.location(redirectTo);
      return '';
    }
    if (json !== null) {
      res.type('json');
      return JSON.stringify(json);
    }
    return (await page) ?? '';
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
          result instanceof FormAnswer ? result.write(req, res) : Promise.resolve(result),
        ),
      );
  }
}
