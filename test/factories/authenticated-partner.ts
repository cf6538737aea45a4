import type { AuthenticatedPartner } from '#app/partners';

/** An active live partner (org-1, fee 0.5 %) as its credential authenticates it. */
export function authenticatedPartner(
  fields: Partial<AuthenticatedPartner> = {},
): AuthenticatedPartner {
  return {
    credentialId: 'cred-1',
    publicKey: 'pk_live_x',
    organizationId: 'org-1',
    livemode: true,
    organizationStatus: 'active',
    feePercent: '0.5',
    providerActivated: true,
    ...fields,
  };
}
