import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';

/**
 * OpenAPI docs for a DTO whose fields and validation rules it inherits from a lib (where the admin
 * CLI uses them too). Redeclaring a field in the subclass only to decorate it is refused with ES2022
 * class fields (TS2612), hence one class decorator; the type makes every field documented.
 */
export function ApiProperties<T extends object>(properties: {
  [K in keyof T]-?: ApiPropertyOptions;
}): (target: { prototype: T }) => void {
  return (target) => {
    for (const [key, options] of Object.entries<ApiPropertyOptions>(properties)) {
      ApiProperty(options)(target.prototype, key);
    }
  };
}
