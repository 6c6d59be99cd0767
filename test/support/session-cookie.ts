import request from 'supertest';
import type { TestApp } from './test-app';

/** Signs in like the console (POST /ucp/v1/auth/session) and answers the `vending_auth=<session id>` cookie pair. */
export async function signedInCookie(t: TestApp, token: string = t.token): Promise<string> {
  const res = await request(t.app.getHttpServer()).post('/ucp/v1/auth/session').send({ token });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return String(res.headers['set-cookie']).split(';')[0];
}
