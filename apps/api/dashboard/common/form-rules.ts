/** Rules for text typed into dashboard forms: each answers a message for the person, or null. */
import { isPlainText } from '#app/input';

const EMAIL = /^[^\s@<>()[\]",;:\\]+@[^\s@<>()[\]",;:\\.]+(?:\.[^\s@<>()[\]",;:\\.]+)+$/;

export const MAX_EMAIL_LENGTH = 254;

/** Trimmed single-line text of 1..max characters. */
export function textProblem(value: string, label: string, max: number): string | null {
  if (value.trim() === '') {
    return `Enter ${label}.`;
  }
  if ([...value].length > max) {
    return `Use at most ${max} characters for ${label}.`;
  }
  if (!isPlainText(value)) {
    return `${label[0].toUpperCase()}${label.slice(1)} cannot contain control characters.`;
  }
  return null;
}

export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (email === '') {
    return 'Enter your email address.';
  }
  if (email.length > MAX_EMAIL_LENGTH || !isPlainText(email) || !EMAIL.test(email)) {
    return 'Enter an email address like name@example.com.';
  }
  return null;
}

/** A password field: never trimmed (spaces count), no control characters. */
export function passwordFieldProblem(value: string): string | null {
  if (value === '') {
    return 'Enter a password.';
  }
  return !isPlainText(value) ? 'A password cannot contain control characters.' : null;
}
