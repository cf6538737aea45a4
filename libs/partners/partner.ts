/** The caller behind a verified bearer credential. */
export interface AuthenticatedPartner {
  credentialId: string;
  publicKey: string;
  organizationId: string;
  organizationStatus: OrganizationStatus;
  feePercent: string;
  providerActivated: boolean;
}
import { type OrganizationStatus } from '#app/domain';
