/** The process logger as the guard uses it; a pino logger is one. */
export interface GuardLog {
  error(details: object, message: string): void;
  fatal(details: object, message: string): void;
  flush(done?: (error?: Error) => void): void;
}

/** How long an exiting process waits for its last line to be written. */
const FLUSH_BEFORE_EXIT_MS = 1000;

/** An error as a log line carries it: its name, message and stack; anything else as text. */
function describe(reason: unknown): { name?: string; message: string; stack?: string } {
  return reason instanceof Error
    ? { name: reason.name, message: reason.message, stack: reason.stack }
    : { message: String(reason) };
}

/**
 * What a process does with an error that escaped every handler (docs/decisions.md, "Errors that
 * escape a handler"). A rejected promise nobody handles is logged with its stack and the process
 * keeps serving: the promise's own work has failed, nothing else has. An exception thrown outside
 * any promise (a callback of a socket, a timer, an emitter without an `error` listener) is logged
 * with its stack and the process exits with 1 once the line is written: the code that threw was
 * cut off halfway, and state it shared (a connection's queue of pending answers, a pool) may no
 * longer be what the rest of the process assumes, so the orchestrator starts a clean one.
 */
export function guardProcess(
  name: string,
  log: GuardLog,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  process.on('unhandledRejection', (reason: unknown) => {
    log.error(
      { process: name, err: describe(reason) },
      'unhandled promise rejection: logged, the process keeps running',
    );
  });
  process.on('uncaughtException', (error: Error, origin: string) => {
    log.fatal(
      { process: name, origin, err: describe(error) },
      'uncaught exception: the process exits',
    );
    setTimeout(() => exit(1), FLUSH_BEFORE_EXIT_MS).unref();
    log.flush(() => exit(1));
  });
}
