import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '../database/bigint-column';

/**
 * Money really spent (or held while a supplier order is being placed), counted by the budget guard on the +08:00
 * calendar. One row per (source, ref): `checkout`/session id, `replenishment`/run id...
 * `state`: `spent` (the supplier accepted), `held` (the order is being placed right now) or `uncertain`
 * (the supplier could not be reached: the order may exist, so it is still counted).
 */
@Entity('spend_ledger')
@Index('uq_spend_source_ref', ['source', 'ref'], { unique: true })
@Index('idx_spend_at', ['spentAt'])
export class SpendEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  source: string;

  @Column('text')
  ref: string;

  @Column('bigint', { name: 'amount_fen', transformer: bigintNumber })
  amountFen: number;

  @Column('text', { default: 'spent' })
  state: string;

  @Column('timestamptz', { name: 'spent_at', default: () => 'now()' })
  spentAt: Date;
}
