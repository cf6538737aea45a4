import { PROVIDER_STATUSES, type ProviderStatus } from '#app/domain';
import { IsIn } from 'class-validator';

export class ForceStatusDto {
  @IsIn(PROVIDER_STATUSES)
  status: ProviderStatus;
}
