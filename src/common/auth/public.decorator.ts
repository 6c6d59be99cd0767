import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'ucp:isPublic';
/** Marks a route that needs no token: discovery and the health routes only (decisions.md section 10). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
