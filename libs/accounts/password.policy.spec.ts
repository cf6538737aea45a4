import { commonPasswordCount, MIN_PASSWORD_LENGTH, passwordProblem } from './password.policy.js';

describe('passwordProblem', () => {
  it('checks against a list of at least 10,000 common passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
  });

  it.each([
    ['short', 'Use at least 12 characters.'],
    ['password1234', 'This password is too common: choose one that is harder to guess.'],
    ['PASSWORD1234', 'This password is too common: choose one that is harder to guess.'],
    [
      'aaaaaaaaaaaaaaa',
      'This password repeats too few characters: choose one that is harder to guess.',
    ],
    ['x'.repeat(257), 'Use at most 256 characters.'],
  ])('refuses %j', (password, message) => {
    expect(passwordProblem(password)).toBe(message);
  });

  it('refuses the email itself and accepts a long uncommon password', () => {
    expect(passwordProblem('someone@example.com', 'Someone@Example.com')).toMatch(/too common/);
    expect(passwordProblem('correct horse battery staple')).toBeNull();
    expect(MIN_PASSWORD_LENGTH).toBe(12);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(passwordProblem('😀😀😀😀😀😀😀😀😀😀😀')).toBe('Use at least 12 characters.');
    expect(passwordProblem('😀😁😂🤣😃😄😅😆😉😊😋😎')).toBeNull();
  });
});
