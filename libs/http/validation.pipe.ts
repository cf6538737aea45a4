import { ValidationError, ValidationPipe } from '@nestjs/common';
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

/** The one global pipe: strict DTOs, errors in the spec's envelope with `param` set. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
