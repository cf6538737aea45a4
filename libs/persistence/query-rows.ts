/** The rows of a plain query: `UPDATE`/`DELETE … RETURNING` answer `[rows, count]` through TypeORM's postgres driver. */
export function rowsOf<T>(result: [T[], number] | T[]): T[] {
  return Array.isArray(result[0]) ? (result as [T[], number])[0] : (result as T[]);
}
