/** The largest number of `times` (ms) that fall in any window of `windowMs`. */
export function maxInAnyWindow(times: readonly number[], windowMs = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[i] - sorted[j] >= windowMs) {
      j += 1;
    }
    best = Math.max(best, i - j + 1);
  }
  return best;
}
