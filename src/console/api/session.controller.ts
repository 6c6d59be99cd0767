import { Body, Controller, Delete, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { ok } from '../../common/envelope/envelope';
import { SignInBody } from './session.dto';
import { SessionDocs } from './session.openapi';
import { SessionRequest, SessionService } from '../session.service';

const from = (req: Request): SessionRequest => ({ origin: req.headers.origin, host: req.headers.host, https: req.secure, cookie: req.headers.cookie });

/** The console's sign-in and sign-out (issue 19): the operator token in a body, the answer in an HttpOnly cookie. */
@ApiTags('auth')
@Controller('ucp/v1/auth/session')
export class SessionController {
  constructor(private readonly sessions: SessionService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @SessionDocs.signIn
  async signIn(@Body() body: SignInBody, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Set-Cookie', await this.sessions.signIn(body.token, from(req)));
    res.setHeader('Cache-Control', 'no-store');
    return ok({ signed_in: true });
  }

  @Delete()
  @Public()
  @SessionDocs.signOut
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Set-Cookie', await this.sessions.signOut(from(req)));
    res.setHeader('Cache-Control', 'no-store');
    return ok({ signed_in: false });
  }
}
