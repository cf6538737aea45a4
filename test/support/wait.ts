import { createServer } from 'node:net';

/** A loopback port nothing listens on right now, for a child process to take. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Polls `condition` until it holds; returns how long that took, or throws naming `what`. */
export async function waitUntil(
  what: string,
  condition: () => Promise<boolean>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return Date.now() - started;
}

/**
 * A wait that spaces calls at least `intervalMs` apart, measured from the previous call's return:
 * a loop that awaits it before each request stays under a rate however fast the machine answers.
 */
export function pacer(intervalMs: number): () => Promise<void> {
  let last = 0;
  return async () => {
    const wait = last + intervalMs - Date.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    last = Date.now();
  };
}
