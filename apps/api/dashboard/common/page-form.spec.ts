import { jest } from '@jest/globals';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { lastValueFrom, of } from 'rxjs';
import { AppError, ErrorCode } from '#app/errors';
import { FLASH_COOKIE, SESSION_COOKIE } from './cookies.js';
import { FormAnswer, FormAnswerInterceptor } from './form-answer.js';
import { checked, type FormProblems, submitForm } from './page-form.js';

/** What the interceptor did to a response: its status, headers and cookies, and the body. */
async function sent(result: unknown) {
  const res = {
    statusCode: 201,
    headers: {} as Record<string, string>,
    cookies: [] as string[],
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    location(url: string) {
      this.headers.location = url;
      return this;
    },
    type(type: string) {
      this.headers['content-type'] = type;
      return this;
    },
    setHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    },
    cookie(name: string) {
      this.cookies.push(name);
    },
    clearCookie(name: string) {
      this.cookies.push(`${name} cleared`);
    },
  };
  const req = { secure: false } as Request;
  const context = {
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res as unknown as Response }),
  } as ExecutionContext;
  const next: CallHandler = { handle: () => of(result) };
  const body = await lastValueFrom(new FormAnswerInterceptor().intercept(context, next));
  return { ...res, body };
}

describe(submitForm.name, () => {
  const again = (problems: FormProblems) => `<form>${JSON.stringify(problems)}</form>`;

  it('submits checked values once and answers what `done` says', async () => {
    const submit = jest.fn((name: string) => Promise.resolve(`key ${name}`));
    const sut = await submitForm({
      check: () => checked('Server', {}),
      submit,
      done: (made) => FormAnswer.done('/partner/api-keys', `${made} created.`),
      refused: { again },
    });
    expect(submit).toHaveBeenCalledWith('Server');
    expect(sut).toMatchObject({
      redirectTo: '/partner/api-keys',
      status: 303,
      flash: { kind: 'success', text: 'key Server created.' },
    });
  });

  it('never calls the service with fields that break a rule: the page again, 400', async () => {
    const submit = jest.fn(() => Promise.resolve());
    const sut = await submitForm({
      check: () => checked('', { name: 'Enter a name.', url: undefined }),
      submit,
      done: () => FormAnswer.done('/partner', 'Done.'),
      refused: { again },
    });
    expect(submit).not.toHaveBeenCalled();
    expect(sut.status).toBe(400);
    expect(await sut.page).toBe('<form>{"name":"Enter a name."}</form>');
  });

  it("shows a service refusal beside the field it names, else at the form's top", async () => {
    const refusing = (error: AppError) =>
      submitForm({
        submit: () => Promise.reject(error),
        done: () => FormAnswer.done('/partner', 'Done.'),
        refused: { again, status: 422 },
      });
    const byField = await refusing(
      new AppError(ErrorCode.InvalidRequest, 'url must be https.', { param: 'url' }),
    );
    expect(byField.status).toBe(422);
    expect(await byField.page).toContain('"url":"url must be https."');
    const whole = await refusing(new AppError(ErrorCode.InvalidRequest, 'At most 10.'));
    expect(await whole.page).toContain('"form":"At most 10."');
  });

  it('goes back with the refusal as the message where the form says so', async () => {
    const sut = await submitForm({
      submit: () => Promise.reject(new AppError(ErrorCode.Conflict, 'This endpoint is disabled.')),
      refusals: [ErrorCode.Conflict],
      done: () => FormAnswer.done('/partner/webhooks', 'Done.'),
      refused: { back: '/partner/webhooks' },
    });
    expect(sut).toMatchObject({
      redirectTo: '/partner/webhooks',
      status: 303,
      flash: { kind: 'error', text: 'This endpoint is disabled.' },
    });
  });

  it('lets every other error through to the error page', async () => {
    const form = (error: Error) =>
      submitForm({
        submit: () => Promise.reject(error),
        done: () => FormAnswer.done('/partner', 'Done.'),
        refused: { back: '/partner' },
      });
    const notFound = new AppError(ErrorCode.NotFound, 'Webhook endpoint not found.');
    await expect(form(notFound)).rejects.toBe(notFound);
    const bug = new TypeError('undefined is not a function');
    await expect(form(bug)).rejects.toBe(bug);
  });
});

describe(FormAnswerInterceptor.name, () => {
  it('sends a redirect as 303 with its flash cookie and no page', async () => {
    const sut = await sent(FormAnswer.refused('/partner/team', 'Choose a role.'));
    expect(sut.statusCode).toBe(303);
    expect(sut.headers.location).toBe('/partner/team');
    expect(sut.cookies).toEqual([FLASH_COOKIE]);
    expect(sut.body).toBe('');
  });

  it("sends a page with its status and a throttle's Retry-After", async () => {
    const sut = await sent(
      FormAnswer.page(Promise.resolve('<h1>API keys</h1>'), 429, { retryAfterMs: 1500 }),
    );
    expect(sut.statusCode).toBe(429);
    expect(sut.headers['retry-after']).toBe('2');
    expect(sut.cookies).toEqual([]);
    expect(sut.body).toBe('<h1>API keys</h1>');
  });

  it('sets the session cookie a credential change gives, or clears it when signed out', async () => {
    const changed = await sent(
      FormAnswer.done('/partner/security', 'Password changed.').withSession('new-token'),
    );
    expect(changed.cookies).toEqual([SESSION_COOKIE, FLASH_COOKIE]);
    const out = await sent(FormAnswer.redirect('/partner/login').withSession(null));
    expect(out.cookies).toEqual([`${SESSION_COOKIE} cleared`]);
  });

  it('answers JSON to a script', async () => {
    const sut = await sent(FormAnswer.json({ message: 'No passkey.' }));
    expect(sut.statusCode).toBe(200);
    expect(JSON.parse(sut.body as string)).toEqual({ message: 'No passkey.' });
  });

  it('passes what is not a form answer as it is', async () => {
    const sut = await sent('<h1>Overview</h1>');
    expect(sut.statusCode).toBe(201);
    expect(sut.body).toBe('<h1>Overview</h1>');
  });
});
