import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving one request carries. */
export interface RequestContext {
  requestId: string;
  orgId?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
