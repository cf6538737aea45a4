import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { declaredFields } from '#app/input';

type RequestClass = new () => object;

/** Jest runs from the repository root. */
const ROOT = process.cwd();

/** Every request class file: the api's DTOs and the libs' inputs (shared with the CLI). */
function requestFiles(): string[] {
  const dtos = readdirSync(join(ROOT, 'apps/api'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.dto.ts'))
    .map((path) => join(ROOT, 'apps/api', path));
  const inputs = readdirSync(join(ROOT, 'libs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.input.ts'))
    .map((path) => join(ROOT, 'libs', path));
  return [...dtos, ...inputs];
}

function validatedProperties(type: RequestClass): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(type, '', true, false)
      .map((meta) => meta.propertyName),
  );
}

/** The exported classes with at least one validated field, by `file: Class`. */
async function requestClasses(): Promise<[string, RequestClass][]> {
  const found: [string, RequestClass][] = [];
  for (const file of requestFiles()) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === 'function' && validatedProperties(value as RequestClass).size > 0) {
        found.push([`${relative(ROOT, file)}: ${name}`, value as RequestClass]);
      }
    }
  }
  return found;
}

/**
 * The fields where null is a value (docs/decisions.md, "Null for an optional field means absent"):
 * it clears what is stored, or the legacy import stores it.
 */
const NULL_IS_A_VALUE = new Set([
  'UpdateWebhookEndpointDto.description',
  'UpdateOrganizationInput.payoutAddress',
  'UpdateOrganizationDto.payoutAddress',
  ...[
    'providerSwapId',
    'amountExpectedTo',
    'amountActualFrom',
    'amountActualTo',
    'networkFee',
    'actualNetworkFee',
    'rate',
    'refundAddress',
    'payinHash',
    'payoutHash',
    'moneyReceivedAt',
    'moneySentAt',
    'amountAnomalyPct',
    'partnerReferenceId',
    'payTill',
  ].map((field) => `LegacySwapDto.${field}`),
]);

/** Bodies whose rules are a service's, shared with a dashboard form: it refuses null there. */
const CHECKED_BY_A_SERVICE = new Set(['CreateWidgetKeyDto']);

async function nullOnly(type: RequestClass, field: string) {
  const instance = plainToInstance(type, { [field]: null }) as Record<string, unknown>;
  const errors = await validate(instance);
  return { value: instance[field], refused: errors.some((e) => e.property === field) };
}

describe('Request fields: one style, one rule for null', () => {
  let classes: [string, RequestClass][];

  beforeAll(async () => {
    classes = await requestClasses();
  });

  it('finds the request classes of the api and the libs', () => {
    const names = classes.map(([name]) => name.split(': ')[1]);
    expect(names).toEqual(
      expect.arrayContaining([
        'CreateSwapDto',
        'UpdateWebhookEndpointDto',
        'ListSwapsDto',
        'LegacySwapDto',
        'CreateWidgetKeyDto',
        'UpdateOrganizationInput',
        'CreateInvitationInput',
        'AuditQueryInput',
      ]),
    );
  });

  it('declares every validated field through a field decorator of #app/input', () => {
    const undeclared = classes.flatMap(([name, type]) => {
      const declared = declaredFields(type);
      return [...validatedProperties(type)]
        .filter((field) => !declared.has(field))
        .map((field) => `${name}.${field}`);
    });
    expect(undeclared).toEqual([]);
  });

  it('reads null on an optional field as absent, keeps it only where the decision names it, and refuses it on a required field', async () => {
    const wrong: string[] = [];
    const nullable: string[] = [];
    for (const [name, type] of classes) {
      const className = name.split(': ')[1];
      for (const [field, presence] of declaredFields(type)) {
        const { value, refused } = await nullOnly(type, field);
        if (presence.nullable === true) {
          nullable.push(`${className}.${field}`);
          if (value !== null || refused) {
            wrong.push(`${name}.${field}: null must be kept as a value`);
          }
        } else if (presence.required === false) {
          if (value !== undefined || refused) {
            wrong.push(`${name}.${field}: null must read as absent`);
          }
        } else if (value !== null || (!refused && !CHECKED_BY_A_SERVICE.has(className))) {
          wrong.push(`${name}.${field}: null must be refused`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(new Set(nullable)).toEqual(NULL_IS_A_VALUE);
  });
});
