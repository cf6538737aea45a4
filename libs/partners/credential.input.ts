import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { CREDENTIAL_MODES, type CredentialMode } from '#app/domain';

/** A new credential: live unless asked otherwise. Shared by the admin API's body and the CLI. */
export class CreateCredentialInput {
  /** `null` is absent, as for every optional field: a live credential. */
  @Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))
  @IsOptional()
  @IsIn(CREDENTIAL_MODES)
  mode?: CredentialMode;
}
