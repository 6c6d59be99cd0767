import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_QUANTITY } from '../../common/edge/limits';
import { PACK_UNITS, type PackUnit } from '../../partners/adapter.types';

export class ItemRefBody {
  @IsDefined()
  @IsString()
  @MaxLength(300)
  id: string;
}

export class QuantityUnitBody {
  @IsDefined()
  @IsIn(PACK_UNITS)
  unit: PackUnit;
}

export class CheckoutLineBody {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ItemRefBody)
  item: ItemRefBody;

  /** >= 1 on create; on update 0 removes the line. */
  @IsDefined()
  @IsInt()
  @Min(0)
  @Max(MAX_QUANTITY)
  quantity: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => QuantityUnitBody)
  quantity_unit?: QuantityUnitBody;
}

export class DestinationBody {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  street_address?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone_number?: string;
}

export class FulfillmentMethodBody {
  @IsDefined()
  @IsIn(['shipping', 'pickup'])
  type: 'shipping' | 'pickup';

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DestinationBody)
  destinations?: DestinationBody[];
}

export class FulfillmentBody {
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(5)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => FulfillmentMethodBody)
  methods: FulfillmentMethodBody[];
}

/** What create and update share: the session id and the fulfillment. */
export class CheckoutSessionFields {
  /** Becomes the purchase-order number and the supplier's order ref. */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'id must be 1 to 64 letters, digits, dot, underscore or hyphen' })
  id?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FulfillmentBody)
  fulfillment?: FulfillmentBody;
}

/** PUT /checkout-sessions/{id}: every field optional (an absent `line_items` keeps the lines). */
export class CheckoutSessionBody extends CheckoutSessionFields {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CheckoutLineBody)
  line_items?: CheckoutLineBody[];
}

/** POST /checkout-sessions: UCP's create request requires `line_items` (an empty list leaves the session incomplete). */
export class CreateCheckoutSessionBody extends CheckoutSessionFields {
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CheckoutLineBody)
  line_items: CheckoutLineBody[];
}

/** `confirm` is checked by the service (it must be the JSON boolean true; anything else is confirmation_required). */
export class CompleteBody {
  @IsOptional()
  confirm?: unknown;

  @IsOptional()
  payment?: unknown;
}
