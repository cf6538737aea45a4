import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DashboardUser } from '#app/accounts';

/**
 * A step a password sign-in may need before its session starts (a second factor). `begin`
 * answers where to send the browser instead of signing in, or null when the user needs no such
 * step. `next` is the page asked for, already checked.
 */
export interface SignInStep {
  begin(user: DashboardUser, next: string, req: Request, res: Response): Promise<string | null>;
}

/** Where page modules put the steps a password sign-in goes through (second factors). */
@Injectable()
export class SignInSteps {
  private readonly steps: SignInStep[] = [];

  register(step: SignInStep): void {
    this.steps.push(step);
  }

  /** Where the first step that applies sends the browser; null: start the session now. */
  async afterPassword(
    user: DashboardUser,
    next: string,
    req: Request,
    res: Response,
  ): Promise<string | null> {
    for (const step of this.steps) {
      const url = await step.begin(user, next, req, res);
      if (url !== null) {
        return url;
      }
    }
    return null;
  }
}
