/**
 * The body of an action that takes no parameters: `{}` (any field is refused). Partner POSTs
 * declare `Content-Type: application/json` (docs/decisions.md, "JSON content type"), so the body is
 * sent, and empty.
 */
export class EmptyBodyDto {}
