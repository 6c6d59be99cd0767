import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import { bodyKeysProblem } from './body-keys.rules';
import { Errors } from '../errors/errors';
import { NO_QUERY, QueryKeys, queryKeysProblem } from './query-keys.rules';

const READS_RAW_BODY = 'reads_raw_body';

/** A handler that reads `req.body` itself (through `@Req()`, not `@Body()`), e.g. the MCP endpoint: it takes a body. */
export const ReadsRawBody = () => SetMetadata(READS_RAW_BODY, true);

/** What a route takes from the request, read once from its handler's metadata. */
interface RouteKeys {
  query: QueryKeys;
  body: boolean;
}

/**
 * Every HTTP route refuses query keys it does not take, and several values where it takes one (issue 17), and a route
 * that takes no body refuses a body with any key (issue 25); after the auth guard (registered after it) and before any
 * pipe runs. A guard, not an interceptor: no Observable per request on the hot reads. The keys come from the route's
 * own `@Query()` DTO (its class-validator properties) or `@Query('name')` parameters; a route with neither takes no
 * query; a route with no `@Body()` parameter (and no `@ReadsRawBody()`) takes no body. Read once per route, then kept.
 */
@Injectable()
export class RequestKeysGuard implements CanActivate {
  private readonly byHandler = new WeakMap<object, RouteKeys>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    let keys = this.byHandler.get(handler);
    if (!keys) {
      keys = routeKeys(context.getClass(), handler);
      this.byHandler.set(handler, keys);
    }
    const req = context.switchToHttp().getRequest<Request>();
    const problem = queryKeysProblem(req.query as Record<string, unknown>, keys.query) ?? (keys.body ? null : bodyKeysProblem(req.body));
    if (problem) throw Errors.invalid(problem.path, problem.why);
    return true;
  }
}

function routeKeys(controller: Function, handler: Function): RouteKeys {
  return { query: routeQueryKeys(controller, handler.name), body: routeTakesBody(controller, handler) };
}

/** Whether a controller method takes a request body: a `@Body()` parameter, or `@ReadsRawBody()`. */
export function routeTakesBody(controller: Function, handler: Function): boolean {
  if (Reflect.getMetadata(READS_RAW_BODY, handler) === true) return true;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<string, RouteArg>;
  return Object.keys(args).some((name) => Number(name.split(':')[0]) === RouteParamtypes.BODY);
}

interface RouteArg {
  index: number;
  data?: unknown;
}

/** The query keys of a controller method, from the metadata of its parameter decorators. */
export function routeQueryKeys(controller: Function, method: string): QueryKeys {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, RouteArg>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as unknown[];
  const keys = new Map<string, 'one' | 'many'>();
  for (const [name, arg] of Object.entries(args)) {
    if (Number(name.split(':')[0]) !== RouteParamtypes.QUERY) continue;
    const type = types[arg.index];
    if (typeof arg.data === 'string') keys.set(arg.data, type === Array ? 'many' : 'one');
    else if (typeof type === 'function') for (const [k, v] of dtoQueryKeys(type)) keys.set(k, v);
  }
  return keys.size ? keys : NO_QUERY;
}

function dtoQueryKeys(dto: Function): Map<string, 'one' | 'many'> {
  const keys = new Map<string, 'one' | 'many'>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const many = m.each === true || m.name === 'isArray';
    if (many || !keys.has(m.propertyName)) keys.set(m.propertyName, many ? 'many' : 'one');
  }
  return keys;
}
