import { Test } from '@nestjs/testing';
import { SECOND_FACTOR_STEP } from '../common/sign-in-steps.js';
import { AccountsController } from './accounts.controller.js';

/**
 * Fail closed at boot: the sign-in page cannot be built without the second-factor step, so no
 * dashboard starts in which a password alone signs in a user who has a second factor. Every
 * other dependency is a bare stand-in here: only the wiring is under test.
 */
describe('The sign-in page and its second-factor step', () => {
  const build = (provided: (token: unknown) => boolean) =>
    Test.createTestingModule({ controllers: [AccountsController] })
      .useMocker((token) => (provided(token) ? {} : undefined))
      .compile();

  it('does not start without the module that provides the step', async () => {
    await expect(build((token) => token !== SECOND_FACTOR_STEP)).rejects.toThrow(
      /SECOND_FACTOR_STEP/,
    );
  });

  it('starts with it', async () => {
    const module = await build(() => true);
    expect(module.get(AccountsController)).toBeInstanceOf(AccountsController);
    await module.close();
  });
});
