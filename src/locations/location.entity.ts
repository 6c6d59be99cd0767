import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A registered machine (roster entry). `namespace` is the machine namespace it belongs to. */
@Entity('locations')
export class LocationEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  namespace: string;

  @Column('text')
  name: string;

  /** city, address, placement, venueType, floor, spot (spec "Location"). */
  @Column('jsonb', { default: () => "'{}'" })
  profile: Record<string, unknown>;

  /** Free operator context (notes, amenities); purged on removal. */
  @Column('jsonb', { default: () => "'{}'" })
  context: Record<string, unknown>;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
