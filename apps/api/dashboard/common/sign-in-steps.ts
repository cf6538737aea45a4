import type { DashboardUser } from '#app/accounts';
import type { FormAnswer } from './form-answer.js';

/**
 * The step a password sign-in goes through before its session starts: the second factor.
 * `begin` answers the redirect to the step instead of signing in (with the cookie the step
 * needs), or null when the user has no second factor. `next` is the page asked for, checked.
 */
export interface SignInStep {
  begin(user: DashboardUser, next: string): Promise<FormAnswer | null>;
}

/**
 * The token of the second-factor step, injected where a password is checked. Injected, never
 * registered at run time: a dashboard built without the module that provides it does not start,
 * so a user with a second factor can never get a session from a password alone.
 */
export const SECOND_FACTOR_STEP = Symbol('SECOND_FACTOR_STEP');
