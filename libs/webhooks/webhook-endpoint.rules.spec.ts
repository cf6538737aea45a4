import { AppError } from '#app/errors';
import { WEBHOOK_ENDPOINT_RULES } from './webhook-endpoint.rules.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

/**
 * The service owns its rules: whoever calls it (the REST API, the dashboard, the CLI), a
 * description over the limit is refused before anything is checked, resolved or stored. Its
 * collaborators are absent here: reaching any of them would throw a TypeError instead.
 */
describe('Webhook endpoint rules', () => {
  const service = new WebhookEndpointsService(
    ...(Array.from({ length: 6 }, () => undefined) as unknown as ConstructorParameters<
      typeof WebhookEndpointsService
    >),
  );
  const owner = { organizationId: 'org_rules', livemode: false };
  const tooLong = 'd'.repeat(WEBHOOK_ENDPOINT_RULES.descriptionMaxLength + 1);

  it.each([
    ['create', () => service.create(owner, { url: 'https://hooks.example', description: tooLong })],
    ['update', () => service.update('we_rules', owner, { description: tooLong })],
  ])('refuses a description over the limit on %s, naming the field', async (_name, call) => {
    const refusal = await call().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'invalid_request', param: 'description' });
  });

  it('counts characters, not UTF-16 units: the limit in emoji is the limit', async () => {
    const emoji = '\u{1F600}'.repeat(WEBHOOK_ENDPOINT_RULES.descriptionMaxLength);
    // Within the limit, so the call goes on past the description (to the URL's checks).
    const outcome = await service
      .create(owner, { url: 'https://hooks.example', description: emoji })
      .catch((error: unknown) => error);
    expect(outcome).not.toMatchObject({ param: 'description' });
  });
});
