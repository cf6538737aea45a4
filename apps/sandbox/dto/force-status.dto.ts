import { IsIn } from 'class-validator';
import { PROVIDER_STATUSES, type ProviderStatus } from '#app/provider';

export class ForceStatusDto {
  @IsIn(PROVIDER_STATUSES)
  status: ProviderStatus;
}
