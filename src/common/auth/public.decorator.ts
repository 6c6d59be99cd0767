import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const IS_PUBLIC = 'ucp:isPublic';
/** OpenAPI marker of a public route; the document turns it into `security: []` (src/openapi.ts). */
export const OPENAPI_PUBLIC = 'x-public';
/** Marks a route that needs no token: discovery and the health routes only (docs/contract/). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(OPENAPI_PUBLIC, true));
