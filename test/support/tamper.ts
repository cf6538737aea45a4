/**
 * `value` with one character changed, at its start or its end. Always a different string of the
 * same length, so a check that must refuse it cannot pass by chance: writing a fixed character
 * leaves a value that already holds it unchanged (1 time in 64 for a base64url token).
 */
export function altered(value: string, at: 'start' | 'end' = 'end'): string {
  const index = at === 'start' ? 0 : value.length - 1;
  const replacement = value[index] === 'A' ? 'B' : 'A';
  return `${value.slice(0, index)}${replacement}${value.slice(index + 1)}`;
}
