import { ConfigError } from '#app/config';

/**
 * Runs a process entry point. A configuration error stops the process with one line naming the
 * variable; any other start-up failure with one line and no stack.
 */
export async function runProcess(name: string, start: () => Promise<void>): Promise<void> {
  try {
    await start();
  } catch (error: unknown) {
    const line =
      error instanceof ConfigError
        ? error.message
        : `${name} failed to start: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${line}\n`);
    process.exit(1);
  }
}
