import {
  ValidationPipe,
  type ArgumentMetadata,
  type Type,
  type ValidationError,
} from '@nestjs/common';
import { AppError, ErrorCode } from '#app/errors';

function firstLeaf(
  errors: ValidationError[],
  prefix = '',
): { path: string; message: string } | null {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      const [key, message] = Object.entries(error.constraints)[0] ?? ['', ''];
      return {
        path,
        message: key === 'whitelistValidation' ? `Unknown field '${path}'.` : message,
      };
    }
    const nested = firstLeaf(error.children ?? [], path);
    if (nested) {
      return nested;
    }
  }
  return null;
}

/** How many distinct valid queries a DTO keeps the answer of; past it, it starts afresh. */
const QUERIES_KEPT = 512;

/**
 * A query string is validated once per distinct value: the DTO it becomes (frozen, so no caller
 * can change what the next request receives) is kept by its parsed parameters, up to
 * `QUERIES_KEPT` per DTO. Hot queries repeat (a price widget asks the same pair again and again);
 * a query refused is validated each time, so every refusal still says why. Bodies are not kept.
 */
class QueryValidationPipe extends ValidationPipe {
  private readonly valid = new Map<Type, Map<string, unknown>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (metadata.type !== 'query' || !metatype || !this.toValidate(metadata)) {
      return super.transform(value, metadata);
    }
    const key = JSON.stringify(value) ?? '';
    let kept = this.valid.get(metatype);
    const known = kept?.get(key);
    if (known !== undefined) {
      return known;
    }
    const dto: unknown = Object.freeze(await super.transform(value, metadata));
    if (!kept || kept.size >= QUERIES_KEPT) {
      kept = new Map();
      this.valid.set(metatype, kept);
    }
    kept.set(key, dto);
    return dto;
  }
}

/** The one global pipe: strict DTOs, errors in the spec's envelope with `param` set. */
export function createValidationPipe(): ValidationPipe {
  return new QueryValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors: ValidationError[]) => {
      const leaf = firstLeaf(errors);
      return new AppError(ErrorCode.InvalidRequest, leaf?.message ?? 'The request is invalid.', {
        param: leaf?.path ?? null,
      });
    },
  });
}
