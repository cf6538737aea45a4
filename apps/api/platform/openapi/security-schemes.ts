/** The OpenAPI security schemes' names, one per way a caller authenticates. */
export const PARTNER_SECURITY = 'credential';
export const ADMIN_SECURITY = 'adminToken';
/** Widget keys (`X-Widget-Key`). */
export const WIDGET_SECURITY = 'widgetKey';
