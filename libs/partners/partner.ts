/** The caller behind a verified bearer credential. */
export interface AuthenticatedPartner {
  credentialId: string;
  publicKey: string;
  organizationId: string;
  /** False for a test credential (`pk_test_`): its requests go to the sandbox provider. */
  livemode: boolean;
  organizationStatus: OrganizationStatus;
  feePercent: string;
  providerActivated: boolean;
}
import { type OrganizationStatus } from '#app/domain';
