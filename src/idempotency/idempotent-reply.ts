import type { Request, Response } from 'express';
import { callerOf } from '../common/auth/credential';
import { Attempt, CarriedAnswer, IdempotencyService } from './idempotency.service';
import { idempotencyKeyOf, rawBodyOf } from './raw-body';

/** The operation a key is bound to (part of its fingerprint); `rawBody` defaults to the request's raw body. */
export interface IdempotentOperation {
  operation: string;
  resourceId: string;
  rawBody?: string;
}

/**
 * Runs a write under the request's Idempotency-Key (when sent) and writes its answer, in the HTTP layer so that
 * services never name a status. The success status is the route's (`@HttpCode`, which Nest sets on the response
 * before the handler runs); a failure's is its code's. A replay answers the stored status and body and adds
 * `Idempotent-Replayed: true`. `handle` learns whether it resumes a first attempt that died (`attempt.resumed`): it
 * then answers that attempt's final outcome.
 */
export async function replyOnce(
  store: IdempotencyService,
  req: Request,
  res: Response,
  op: IdempotentOperation,
  handle: (attempt: Attempt) => Promise<unknown>,
): Promise<unknown> {
  const success = res.statusCode;
  const scope = { operation: op.operation, resourceId: op.resourceId, rawBody: op.rawBody ?? rawBodyOf(req), principal: principalOf(req) };
  const answer = await store.run(idempotencyKeyOf(req), scope, async (attempt) => ({ status: success, body: await handle(attempt) }));
  res.status(answer.status);
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  return answer.body;
}

/**
 * `replyOnce` for an operation that calls no money-moving partner: `handle` gets the answer writer, with which it
 * writes the key and the answer it is about to return inside its own transaction, on its own or carried by its own
 * insert (body thunks: nothing is rendered without a key), so the key, the operation's writes and the stored answer
 * commit together (IdempotencyService.runInOneTransaction). The answer sent is the stored one.
 */
export async function replyOnceInOneTransaction(
  store: IdempotencyService,
  req: Request,
  res: Response,
  op: IdempotentOperation,
  handle: (answer: SuccessAnswer) => Promise<unknown>,
): Promise<unknown> {
  const success = res.statusCode;
  const scope = { operation: op.operation, resourceId: op.resourceId, rawBody: op.rawBody ?? rawBodyOf(req), principal: principalOf(req) };
  const answer = await store.runInOneTransaction(idempotencyKeyOf(req), scope, async (writer) => ({
    status: success,
    body: await handle({ store: (body) => writer.store(success, body), carry: (body) => writer.carry(success, body) }),
  }));
  res.status(answer.status);
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  return answer.body;
}

/** The route's success answer, written under the request's key (see AnswerInTransaction). */
export interface SuccessAnswer {
  store(body: () => unknown): Promise<void>;
  carry(body: () => unknown): CarriedAnswer | null;
}

/** Who sent the request, as bound to its key: the credential, and a chat credential's chat. */
function principalOf(req: Request): string {
  const c = callerOf(req);
  if (c.credential === 'agent') return `agent:${c.agent?.clientId ?? ''}`; // bound to the agent's client (issue 36)
  return c.credential === 'chat' ? `chat:${c.chatId ?? ''}` : c.credential;
}
