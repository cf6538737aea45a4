import { AuditLogEntryEntity } from './audit-log-entry.entity.js';
import { CredentialEntity } from './credential.entity.js';
import { EarningsEntryEntity } from './earnings-entry.entity.js';
import { EventEntity } from './event.entity.js';
import { FixedRateEntity } from './fixed-rate.entity.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
import { OrganizationEntity } from './organization.entity.js';
import { PayoutEntity } from './payout.entity.js';
import { SwapEventEntity } from './swap-event.entity.js';
import { SwapEntity } from './swap.entity.js';
import { WebhookAttemptEntity } from './webhook-attempt.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookEndpointEntity } from './webhook-endpoint.entity.js';
import { DashboardPasskeyEntity } from './dashboard-passkey.entity.js';
import { DashboardPendingSignInEntity } from './dashboard-pending-sign-in.entity.js';
import { DashboardRecoveryCodeEntity } from './dashboard-recovery-code.entity.js';
import { DashboardTotpEntity } from './dashboard-totp.entity.js';
import { DashboardWebAuthnChallengeEntity } from './dashboard-webauthn-challenge.entity.js';
import { WidgetKeyEntity } from './widget-key.entity.js';

export * from './audit-log-entry.entity.js';
export * from './credential.entity.js';
export * from './earnings-entry.entity.js';
export * from './event.entity.js';
export * from './fixed-rate.entity.js';
export * from './idempotency-key.entity.js';
export * from './organization.entity.js';
export * from './payout.entity.js';
export * from './swap-event.entity.js';
export * from './swap.entity.js';
export * from './webhook-attempt.entity.js';
export * from './webhook-delivery.entity.js';
export * from './webhook-endpoint.entity.js';
export * from './dashboard-passkey.entity.js';
export * from './dashboard-pending-sign-in.entity.js';
export * from './dashboard-recovery-code.entity.js';
export * from './dashboard-totp.entity.js';
export * from './dashboard-webauthn-challenge.entity.js';
export * from './widget-key.entity.js';

export const ENTITIES = [
  OrganizationEntity,
  CredentialEntity,
  SwapEntity,
  IdempotencyKeyEntity,
  FixedRateEntity,
  EarningsEntryEntity,
  PayoutEntity,
  AuditLogEntryEntity,
  SwapEventEntity,
  EventEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  DashboardPasskeyEntity,
  DashboardPendingSignInEntity,
  DashboardRecoveryCodeEntity,
  DashboardTotpEntity,
  DashboardWebAuthnChallengeEntity,
  WidgetKeyEntity,
];
