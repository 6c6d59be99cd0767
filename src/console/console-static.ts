import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errorBody, message } from '../common/envelope/envelope';

export const CONSOLE_PATH = '/console/';

/** The project root: the nearest folder above this file with a package.json (src/… in tests, dist/src/… built). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

export function defaultConsoleDir(): string {
  return join(projectRoot(), 'dist', 'console');
}

/**
 * Serves the built console as public static files under /console/ (issue 19): the files hold no data, every API
 * call they make is authenticated. Hashed assets are cached for good; index.html is revalidated so a new build shows.
 * A file that is not there falls through to the router's 404 envelope; without a build the path answers a 404
 * envelope that says how to build it.
 */
export function serveConsole(app: NestExpressApplication, dir: string | null): void {
  const root = dir ?? defaultConsoleDir();
  if (!existsSync(join(root, 'index.html'))) {
    app.use(CONSOLE_PATH, (_req: Request, res: Response) => {
      res.status(404).json(errorBody([message('not_found', 'unrecoverable', 'the console is not built: run `npm run build`', '$')]));
    });
    return;
  }
  app.use('/console', (req: Request, res: Response, next: NextFunction) => {
    // `/console` → `/console/` so the page's relative asset URLs resolve under the prefix.
    if (req.originalUrl === '/console' || req.originalUrl.startsWith('/console?')) return res.redirect(301, CONSOLE_PATH);
    next();
  });
  app.useStaticAssets(root, {
    prefix: CONSOLE_PATH,
    index: 'index.html',
    setHeaders: (res: Response, path: string) => {
      res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
