import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { childPath, isJsonObject, jsonValueProblem, stringProblem } from './edge.rules';
import { Errors } from '../errors/errors';
import { MAX_PATH_SEGMENT_CHARS, MAX_QUERY_VALUE_CHARS } from './limits';

/**
 * The global edge check (runs before the validation pipe, on every `@Body`, `@Query` and `@Param` of every route):
 * path segments and query values are bounded text without NUL or lone surrogates, and a JSON body is an object whose
 * strings, keys, numbers and depth are acceptable (edge.rules.ts). Per-field rules (types, integer ranges, lengths)
 * are the DTOs' class-validator decorators. Cheap on GET routes: a length check and one regex per value.
 */
@Injectable()
export class EdgeCheckPipe implements PipeTransform {
  transform(value: unknown, meta: ArgumentMetadata): unknown {
    if (meta.type === 'param') {
      if (typeof value === 'string') checkText(value, `$.${meta.data ?? 'path'}`, MAX_PATH_SEGMENT_CHARS);
    } else if (meta.type === 'query') {
      if (meta.data) checkQueryValue(value, `$.${meta.data}`);
      else if (isJsonObject(value)) for (const k of Object.keys(value)) checkQueryValue(value[k], childPath('$', k));
    } else if (meta.type === 'body' && meta.data === undefined && value !== undefined) {
      if (!isJsonObject(value)) throw Errors.invalid('$', 'the request body must be a JSON object');
      const p = jsonValueProblem(value);
      if (p) throw Errors.invalid(p.path, `${p.path} ${p.why}`);
    }
    return value;
  }
}

function checkQueryValue(v: unknown, path: string): void {
  if (typeof v === 'string') checkText(v, path, MAX_QUERY_VALUE_CHARS);
  else if (Array.isArray(v)) v.forEach((x, i) => checkQueryValue(x, `${path}[${i}]`));
  else if (isJsonObject(v)) for (const k of Object.keys(v)) checkQueryValue(v[k], childPath(path, k)); // an extended query parser's a[b]=
}

function checkText(s: string, path: string, max: number): void {
  const why = stringProblem(s, max);
  if (why) throw Errors.invalid(path, `${path} ${why}`);
}
