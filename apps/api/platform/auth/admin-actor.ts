/**
 * The actor the audit log records for the admin API. There is one shared admin token, so there is
 * no finer identity to record; the request id of each action is in the access log.
 */
export const ADMIN_ACTOR = 'admin';
