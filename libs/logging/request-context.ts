import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request carries. */
export interface RequestContext {
  requestId: string;
  orgId?: string;
  /**
   * False while serving a test credential, for the log lines only: the mode itself travels as a
   * value (the credential's `livemode`) to everything that decides by it.
   */
  livemode?: boolean;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
