/**
 * Describes the request DTOs' class-validator rules in the OpenAPI document, read at run time from class-validator's
 * own metadata: the bound the service enforces is the bound the document shows, constants included (the Swagger
 * plugin reads only literal arguments, so `@Max(ORDERS_MAX_LIMIT)` would otherwise vanish).
 */
import { ApiPropertyOptions, ApiProperty } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

interface Rule {
  target: unknown;
  propertyName: string;
  name?: string;
  type: string;
  constraints?: unknown[];
  each?: boolean;
}

/** The schema keywords one class-validator rule stands for (only the ones that map exactly). */
export function schemaOfRule(rule: Pick<Rule, 'name' | 'constraints' | 'each'>): Record<string, unknown> {
  const c = rule.constraints ?? [];
  const each = rule.each === true;
  switch (rule.name) {
    case 'isInt':
      return each ? {} : { type: 'integer' };
    case 'min':
      return each ? {} : { minimum: c[0] };
    case 'max':
      return each ? {} : { maximum: c[0] };
    case 'arrayMinSize':
      return { minItems: c[0] };
    case 'arrayMaxSize':
      return { maxItems: c[0] };
    case 'minLength':
      return each ? {} : { minLength: c[0] };
    case 'maxLength':
      return each ? {} : { maxLength: c[0] };
    case 'isIn':
      return each || !Array.isArray(c[0]) ? {} : { enum: [...(c[0] as unknown[])] };
    case 'matches':
      return each || !(c[0] instanceof RegExp) ? {} : { pattern: c[0].source };
    case 'isIso8601':
    case 'isISO8601':
    case 'isDateString':
    case 'isRFC3339':
      return each ? {} : { format: 'date-time' };
    case 'isBoolean':
      return each ? {} : { type: 'boolean' };
    default:
      return {};
  }
}

/** Applies every DTO's rules as property metadata (call after the plugin metadata is loaded, before the document). */
export function describeValidationRules(): void {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<Function, Rule[]> };
  for (const [target, rules] of storage.validationMetadatas) {
    const byProperty = new Map<string, Record<string, unknown>>();
    for (const rule of rules) {
      const schema = schemaOfRule(rule);
      if (Object.keys(schema).length === 0) continue;
      byProperty.set(rule.propertyName, { ...byProperty.get(rule.propertyName), ...schema });
    }
    for (const [property, schema] of byProperty) {
      ApiProperty(schema as ApiPropertyOptions)(target.prototype as object, property);
    }
  }
}
