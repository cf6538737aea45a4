import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { CREDENTIAL_MODES, type CredentialMode } from '#app/domain';
import { IsPlainText } from '#app/input';
import { ROLL_OVERLAP_CHOICES, type RollOverlap } from './credentials.service.js';

/** A new credential: live unless asked otherwise. Shared by the admin API's body and the CLI. */
export class CreateCredentialInput {
  /** `null` is absent, as for every optional field: a live credential. */
  @Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))
  @IsOptional()
  @IsIn(CREDENTIAL_MODES)
  mode?: CredentialMode;
}

/** A key made in the dashboard: its name, 1–100 characters of plain text. */
export class NameCredentialInput {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @IsPlainText()
  name: string;
}

/** How long a rolled key keeps working next to its replacement. */
export class RollCredentialInput {
  @IsIn(ROLL_OVERLAP_CHOICES)
  overlap: RollOverlap;
}
