import { jest } from '@jest/globals';
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  type INestApplication,
  Injectable,
  Post,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { ReauthenticationService, type ReauthOutcome, type SignedIn } from '#app/accounts';
import { FLASH_COOKIE } from './cookies.js';
import { DashboardExceptionFilter } from './dashboard-exception.filter.js';
import type { DashboardRequest } from './dashboard-request.js';
import { FormAnswer, FormAnswerInterceptor } from './form-answer.js';
import { Reauthenticated, type RefusedReauth } from './reauthenticated.js';

const ME = { user: { id: 'u1', email: 'owner@example.com' } } as unknown as SignedIn;

/** What `DashboardGuard` leaves for the routes behind it: a signed-in page context. */
@Injectable()
class SignedInForTest implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<DashboardRequest>();
    req.dashboard = { path: req.path, csrfToken: 't', signedIn: ME, flash: null };
    return true;
  }
}

const reached = jest.fn<(route: string) => void>();

@Controller('partner/test')
@UseGuards(SignedInForTest)
@UseInterceptors(FormAnswerInterceptor)
@UseFilters(DashboardExceptionFilter)
class SensitiveController {
  @Post('back')
  @Reauthenticated('to change the team', { back: '/partner/team' })
  back(): FormAnswer {
    reached('back');
    return FormAnswer.done('/partner/team', 'Member removed.');
  }

  @Post('page')
  @Reauthenticated<SensitiveController>('to reveal the secret', {
    again: (page, refused) => page.refusedPage(refused),
    status: { missing: 403, wrong: 400 },
  })
  page(): FormAnswer {
    reached('page');
    return FormAnswer.page('<p>the secret</p>');
  }

  @Post('json')
  @Reauthenticated('to change how you sign in', { json: true })
  json(): { options: string } {
    reached('json');
    return { options: 'challenge' };
  }

  refusedPage({ message, req }: RefusedReauth): string {
    return `<p>${message} (${req.params.key === undefined ? 'no key' : 'a key'})</p>`;
  }
}

/**
 * `@Reauthenticated()`: a request without a fresh re-authentication, or a right proof in its
 * form, never reaches the handler; the route answers the refusal as it declares (back with a
 * message, its page again with the status and `Retry-After`, or JSON).
 */
describe(Reauthenticated.name, () => {
  let app: INestApplication;
  let outcome: ReauthOutcome;
  const ensure = jest.fn(() => Promise.resolve(outcome));

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      controllers: [SensitiveController],
      providers: [{ provide: ReauthenticationService, useValue: { ensure } }],
    }).compile();
    app = module.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    reached.mockClear();
    ensure.mockClear();
  });

  const post = (path: string, form: Record<string, string> = {}) =>
    request(app.getHttpServer()).post(`/partner/test/${path}`).type('form').send(form);

  it('reaches the handler once re-authenticated, checking the proof the form carries', async () => {
    outcome = { ok: true };
    const res = await post('back', { confirmPassword: 'right one', extra: 'x' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/partner/team');
    expect(reached).toHaveBeenCalledWith('back');
    expect(ensure).toHaveBeenCalledWith(
      ME,
      expect.objectContaining({ confirmPassword: 'right one' }),
      expect.any(String),
    );
  });

  it('goes back with the refusal as the message, the handler never run', async () => {
    outcome = { ok: false, refusal: 'missing', factors: ['password'] };
    const res = await post('back');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/partner/team');
    const flash = (res.headers['set-cookie'] as unknown as string[]).find((cookie) =>
      cookie.startsWith(`${FLASH_COOKIE}=`),
    );
    const text = Buffer.from(
      decodeURIComponent(flash!.split(';')[0].split('=')[1]),
      'base64url',
    ).toString('utf8');
    expect(JSON.parse(text)).toEqual({
      kind: 'error',
      text: 'Confirm with your password to change the team.',
    });
    expect(reached).not.toHaveBeenCalled();
  });

  it.each([
    [
      { ok: false, refusal: 'missing', factors: ['password', 'totp'] },
      403,
      'Confirm with your password or an authentication code to reveal the secret.',
    ],
    [{ ok: false, refusal: 'wrong', tried: ['password'] }, 400, 'That password is not right.'],
    [
      { ok: false, refusal: 'throttled', retryAfterMs: 90_000 },
      429,
      'Too many wrong attempts. Wait a few minutes, then try again.',
    ],
  ] as [ReauthOutcome, number, string][])(
    'shows the page again with a %j refusal, answered %i',
    async (refusal, status, message) => {
      outcome = refusal;
      const res = await post('page');
      expect(res.status).toBe(status);
      expect(res.text).toBe(`<p>${message} (no key)</p>`);
      expect(res.headers['retry-after']).toBe(status === 429 ? '90' : undefined);
      expect(reached).not.toHaveBeenCalled();
    },
  );

  it('answers a script the refusal as JSON', async () => {
    outcome = { ok: false, refusal: 'wrong', tried: ['password', 'totp'] };
    const res = await post('json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'That password or code is not right.' });
    expect(reached).not.toHaveBeenCalled();
  });
});
