import { type OrganizationStatus, type PayoutNetwork } from '#app/domain';
import type { OrganizationEntity } from '#app/persistence';

/** An organization as the admin API answers it and the admin CLI prints it. */
export interface OrganizationView {
  id: string;
  name: string;
  feePercent: string;
  status: OrganizationStatus;
  providerActivated: boolean;
  payoutAddress: string | null;
  payoutNetwork: PayoutNetwork;
  createdAt: string;
}

export function toOrganizationView(organization: OrganizationEntity): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    feePercent: organization.feePercent,
    status: organization.status,
    providerActivated: organization.providerActivated,
    payoutAddress: organization.payoutAddress,
    payoutNetwork: organization.payoutNetwork,
    createdAt: organization.createdAt.toISOString(),
  };
}
