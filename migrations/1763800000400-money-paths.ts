import { MigrationInterface, QueryRunner } from 'typeorm';

/** Money paths: guard state, spend ledger, approvals, idempotency keys, checkout sessions (purchase orders). */
export class MoneyPaths1763800000400 implements MigrationInterface {
  name = 'MoneyPaths1763800000400';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "approvals" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "subject" jsonb NOT NULL, "subject_key" text, "summary" text NOT NULL, "location" text, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "resolved_at" TIMESTAMP WITH TIME ZONE, "resolver" jsonb, CONSTRAINT "PK_690417aaefa84d18b1a59e2a499" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_approvals_subject" ON "approvals" ("subject_key", "kind")`);
    await q.query(`CREATE INDEX "idx_approvals_status_requested" ON "approvals" ("status", "requested_at", "id")`);
    await q.query(`CREATE TABLE "checkout_sessions" ("id" text NOT NULL, "namespace" text NOT NULL, "status" text NOT NULL, "line_items" jsonb NOT NULL DEFAULT '[]', "fulfillment" jsonb, "total_fen" bigint NOT NULL DEFAULT '0', "messages" jsonb NOT NULL DEFAULT '[]', "ucp_agent" jsonb, "supplier_order_id" text, "supplier_state" text, "supplier_raw_status" text, "logistics" jsonb NOT NULL DEFAULT '[]', "supplier_checked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5730b2bbc190203a94941d82bd1" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_checkout_status_completed" ON "checkout_sessions" ("status", "completed_at", "id")`);
    await q.query(`CREATE TABLE "guard_state" ("id" text NOT NULL, "rules" jsonb, "problem" text, "kill_switch" boolean NOT NULL DEFAULT false, "kill_switch_reason" text, "kill_switch_changed_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_673672b4eb5d0a545eb1553a756" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "spend_ledger" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "source" text NOT NULL, "ref" text NOT NULL, "amount_fen" bigint NOT NULL, "state" text NOT NULL DEFAULT 'spent', "spent_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f83b51bf23e392d4f8386ff2d40" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "idx_spend_at" ON "spend_ledger" ("spent_at")`);
    await q.query(`CREATE UNIQUE INDEX "uq_spend_source_ref" ON "spend_ledger" ("source", "ref")`);
    await q.query(`CREATE TABLE "idempotency_keys" ("key" text NOT NULL, "fingerprint" text NOT NULL, "operation" text NOT NULL, "resource_id" text NOT NULL, "state" text NOT NULL DEFAULT 'in_flight', "response_status" integer, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_0afd83cbf08c9d12089a9bffc5e" PRIMARY KEY ("key"))`);
    await q.query(`CREATE INDEX "idx_idempotency_created" ON "idempotency_keys" ("created_at")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "idempotency_keys"`);
    await q.query(`DROP TABLE "spend_ledger"`);
    await q.query(`DROP TABLE "guard_state"`);
    await q.query(`DROP TABLE "checkout_sessions"`);
    await q.query(`DROP TABLE "approvals"`);
  }
}
