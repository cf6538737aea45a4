import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request carries. */
export interface RequestContext {
  requestId: string;
  orgId?: string;
  /**
   * False while serving a test credential: provider calls made for the request go to the test
   * provider (`ModeRoutedProvider`), true to the live one. Unset: provider calls are refused.
   */
  livemode?: boolean;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
