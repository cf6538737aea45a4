/**
 * The body of an action that takes no parameters: `{}` (any field is refused). Partner POSTs
 * declare `Content-Type: application/json` (DECISIONS §3.4), so the body is sent, and empty.
 */
export class EmptyBodyDto {}
