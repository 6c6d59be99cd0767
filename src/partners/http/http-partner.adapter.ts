import { PartnerError } from '../adapter.types';
import { Registration } from '../registry/registration';
import { PartnerHttpClient, PartnerHttpOptions } from './partner-http.client';

/**
 * What every partner served over the contract shares: its registration (namespace, vendor, declared capabilities)
 * and one HTTP client. Calling an undeclared capability is refused here as a second line behind the registry, so an
 * adapter handed out by mistake still never calls an endpoint the partner did not promise.
 */
export abstract class HttpPartnerAdapter {
  readonly namespace: string;
  readonly vendor: string;
  readonly capabilities: ReadonlySet<string>;
  readonly simulated = false;
  protected readonly client: PartnerHttpClient;

  constructor(reg: Registration, http: PartnerHttpOptions) {
    this.namespace = reg.namespace;
    this.vendor = reg.vendor;
    this.capabilities = new Set(reg.capabilities);
    this.client = new PartnerHttpClient(reg.namespace, reg.baseUrl, reg.token, http);
  }

  /** Refuses the call unless the registration declares one of `capabilities`. */
  protected require(...capabilities: string[]): void {
    if (!capabilities.some((c) => this.capabilities.has(c))) {
      throw new PartnerError('rejected', this.namespace, `capability ${capabilities.join(' or ')} is not declared in the registration`);
    }
  }
}
