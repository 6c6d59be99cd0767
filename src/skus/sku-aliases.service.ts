import { Injectable } from '@nestjs/common';
import { Errors } from '../common/errors/errors';
import { Tx } from '../database/tx';
import { EventsService } from '../events/events.service';
import { requireSkuId } from '../identifiers/identifiers';
import { PartnerRegistry } from '../partners/registry/partner-registry';
import { aliasTargetProblem, canonicalPair, storedSourceFor } from './alias.rules';
import { SkuAliasRepository } from './sku-alias.repository';
import { SkuRecord, SkusService } from './skus.service';

/** The aliases a SKU record is set to, as the edge validated them (api/skus.dto.ts). */
export interface AliasesInput {
  aliases: { sku_id: string; source?: string }[];
}

/** The operator's aliases of a sku: checked (alias.rules.ts), stored as one set with an event, answered as its record. */
@Injectable()
export class SkuAliasesService {
  constructor(
    private readonly registry: PartnerRegistry,
    private readonly skus: SkusService,
    private readonly stored: SkuAliasRepository,
    private readonly events: EventsService,
    private readonly tx: Tx,
  ) {}

  async put(rawId: string, body: AliasesInput): Promise<SkuRecord> {
    const id = this.skus.validId(rawId);
    const pairs: { skuA: string; skuB: string; source: string; confirmedAt: Date }[] = [];
    const now = new Date();
    const seen = new Set<string>();
    body.aliases.forEach((entry, i) => {
      const path = `$.aliases[${i}]`;
      const target = requireSkuId(entry.sku_id, `${path}.sku_id`);
      const problem = aliasTargetProblem(id.skuId, target.skuId);
      if (problem) throw Errors.invalid(`${path}.sku_id`, `${target.skuId} ${problem}`);
      this.registry.usable(target.namespace, target.role, undefined, `${path}.sku_id`);
      const src = storedSourceFor(entry.source);
      if (!src.ok) throw Errors.invalid(`${path}.source`, src.reason);
      if (seen.has(target.skuId)) return;
      seen.add(target.skuId);
      const [skuA, skuB] = canonicalPair(id.skuId, target.skuId);
      pairs.push({ skuA, skuB, source: src.source, confirmedAt: now });
    });
    const reads = this.skus.reads();
    // The subject must be known (404 otherwise), checked before anything is written.
    await this.skus.record(id, undefined, reads);
    await this.tx.run(async () => {
      await this.stored.replaceFor(id.skuId, pairs);
      await this.events.record({
        kind: 'sku.aliases_changed',
        summary: `aliases of ${id.skuId} set to ${pairs.length ? [...seen].join(', ') : 'none'}`,
        reasoning: 'operator PUT /skus/{sku_id}/aliases; every alias sent is recorded as manual (operator-confirmed)',
      });
    });
    return this.skus.record(id, undefined, reads);
  }
}
