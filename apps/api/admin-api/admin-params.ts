import { Injectable, PipeTransform } from '@nestjs/common';
import { assertOrganizationId, assertPublicKey } from '#app/partners';

@Injectable()
export class OrganizationIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    return assertOrganizationId(value);
  }
}

@Injectable()
export class PublicKeyPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    return assertPublicKey(value);
  }
}
