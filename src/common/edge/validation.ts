import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/errors';
import { message, UcpMessage } from '../envelope/envelope';
import { validationSentence } from './validation-sentences.rules';

/** The field a sentence names: the path's last segment (`quantity`, `line_items[0]`), never the REST path. */
const labelOf = (path: string) => path.replace(/^.*\./, '');

/** class-validator failures become `missing` (absent value) or `invalid` messages with a JSONPath each. */
export function flattenValidationErrors(errors: ValidationError[], parent = '$'): UcpMessage[] {
  const out: UcpMessage[] = [];
  for (const e of errors) {
    const path = /^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`;
    if (e.constraints) {
      const names = Object.keys(e.constraints);
      // `missing` only when a required value is absent (its @IsDefined failed); a null array element is invalid.
      const absent = names.includes('isDefined');
      const code = absent ? 'missing' : 'invalid';
      if (names.includes('whitelistValidation')) {
        out.push(message('invalid', 'recoverable', `${labelOf(path)} is not a field this operation takes.`, path));
      } else {
        out.push(message(code, 'recoverable', validationSentence(labelOf(path), e.constraints), path));
      }
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, path));
  }
  return out;
}

/**
 * Cheap parsing of hot GET queries (issue 13): a query DTO may register a parser that accepts only plainly valid
 * values (a strict allow-list; a unit test holds every query it accepts to what full validation makes of it) and
 * answers null for anything else, which then goes through class-transformer and class-validator as before.
 */
type FastQueryParser = (q: Record<string, unknown>) => object | null;
const fastQueries = new Map<unknown, FastQueryParser>();

export function registerFastQuery<T extends object>(dto: new () => T, parse: (q: Record<string, unknown>) => T | null): void {
  fastQueries.set(dto, parse);
}

class UcpValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && value !== null && typeof value === 'object') {
      const fast = fastQueries.get(metadata.metatype)?.(value as Record<string, unknown>);
      if (fast) return Promise.resolve(fast);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}

export function ucpValidationPipe(): ValidationPipe {
  return new UcpValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    exceptionFactory: (errors) => {
      const messages = flattenValidationErrors(errors);
      const first = messages[0] ?? message('invalid', 'recoverable', 'invalid request');
      const err = new DomainError(first.code === 'missing' ? 'missing' : 'invalid', first.content, { path: first.path, extra: messages.slice(1) });
      return err;
    },
  });
}
