/** Every migration, in order. Add a new class at the end. */
import { Init1763800000000 } from './1763800000000-init';
import { Machines1763800000001 } from './1763800000001-machines';
import { MachinesSync1763800000200 } from './1763800000200-machines-sync';
import { MoneyPaths1763800000400 } from './1763800000400-money-paths';
import { Replenishment1763800000500 } from './1763800000500-replenishment';
import { DemandCache1763800000501 } from './1763800000501-demand-cache';
import { SkuAliases1763800000300 } from './1763800000300-sku-aliases';
import { MoneyClaimLeases1763800000410 } from './1763800000410-money-claim-leases';
import { ReplenishmentClaimLease1763800000520 } from './1763800000520-replenishment-claim-lease';
import { SupplyCheckoutRuns1763800000530 } from './1763800000530-supply-checkout-runs';
import { ApprovalExecutionClaim1763800000610 } from './1763800000610-approval-execution-claim';
import { CheckoutPricedAt1763800000710 } from './1763800000710-checkout-priced-at';
import { RestockClaimLease1763800000720 } from './1763800000720-restock-claim-lease';
import { EventSource1763800000730 } from './1763800000730-event-source';
import { PriceReference1764090000000 } from './1764090000000-price-reference';
import { RateLimitWindows1764090000100 } from './1764090000100-rate-limit-windows';
import { ApprovalRequester1795629281157 } from './1795629281157-approval-requester';
import { PriceAuditFlags1795630682925 } from './1795630682925-price-audit-flags';
import { ConsoleSessions1764090000200 } from './1764090000200-console-sessions';
import { DemandCensoring1795631000000 } from './1795631000000-demand-censoring';
import { Depot1795630400000 } from './1795630400000-depot';
import { SupplyUnavailable1795630500000 } from './1795630500000-supply-unavailable';
import { RouteDay1795640000000 } from './1795640000000-route-day';
import { ReadYourWrites1795650000000 } from './1795650000000-read-your-writes';
import { OAuth1795660000000 } from './1795660000000-oauth';

export const ALL_MIGRATIONS: Function[] = [
  Init1763800000000,
  Machines1763800000001,
  MoneyPaths1763800000400,
  Replenishment1763800000500,
  DemandCache1763800000501,
  SkuAliases1763800000300,
  MachinesSync1763800000200,
  MoneyClaimLeases1763800000410,
  ReplenishmentClaimLease1763800000520,
  SupplyCheckoutRuns1763800000530,
  ApprovalExecutionClaim1763800000610,
  CheckoutPricedAt1763800000710,
  RestockClaimLease1763800000720,
  EventSource1763800000730,
  PriceReference1764090000000,
  RateLimitWindows1764090000100,
  ApprovalRequester1795629281157,
  PriceAuditFlags1795630682925,
  ConsoleSessions1764090000200,
  Depot1795630400000,
  SupplyUnavailable1795630500000,
  DemandCensoring1795631000000,
  RouteDay1795640000000,
  ReadYourWrites1795650000000,
  OAuth1795660000000,
];
