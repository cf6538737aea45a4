/**
 * The limits of an endpoint's fields, in one place: the REST DTO, the dashboard's form and
 * `WebhookEndpointsService` (which enforces them whoever calls it) read these.
 */
export const WEBHOOK_ENDPOINT_RULES = {
  /** Characters of `url`. */
  urlMaxLength: 2_048,
  /** Characters of `description`. */
  descriptionMaxLength: 500,
} as const;
