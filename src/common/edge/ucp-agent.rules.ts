/**
 * The `UCP-Agent` request header: an RFC 8941 structured-field dictionary naming the calling platform's profile,
 * e.g. `profile="https://agent.example/.well-known/ucp"`. Recorded, not verified (docs/contract/values.md);
 * a malformed header is a warning, never a refusal. Pure: no framework import.
 */
export type BareItem = string | number | boolean | { token: string } | { bytes: string };
export interface DictMember {
  value: BareItem | BareItem[];
  params: Record<string, BareItem>;
}
export type UcpAgent = { ok: true; profile: string | null; members: Record<string, DictMember> } | { ok: false; reason: string };

const KEY = /^[a-z*][a-z0-9_.*-]*/;
const TOKEN = /^[A-Za-z*][A-Za-z0-9!#$%&'*+.^_`|~:/-]*/;
const NUMBER = /^-?\d{1,15}(\.\d{1,3})?/;

class Parser {
  constructor(private s: string) {}
  private skipSp(): void {
    this.s = this.s.replace(/^ +/, '');
  }
  private skipOws(): void {
    this.s = this.s.replace(/^[ \t]+/, '');
  }
  done(): boolean {
    return this.s.length === 0;
  }
  key(): string {
    const m = KEY.exec(this.s);
    if (!m) throw new Error(`expected a key at "${this.s.slice(0, 20)}"`);
    this.s = this.s.slice(m[0].length);
    return m[0];
  }
  bareItem(): BareItem {
    const c = this.s[0];
    if (c === '"') return this.string();
    if (c === '?') {
      const v = this.s[1];
      if (v !== '0' && v !== '1') throw new Error('bad boolean');
      this.s = this.s.slice(2);
      return v === '1';
    }
    if (c === ':') {
      const end = this.s.indexOf(':', 1);
      if (end < 0) throw new Error('unterminated byte sequence');
      const bytes = this.s.slice(1, end);
      if (!/^[A-Za-z0-9+/=]*$/.test(bytes)) throw new Error('bad byte sequence');
      this.s = this.s.slice(end + 1);
      return { bytes };
    }
    const n = NUMBER.exec(this.s);
    if (n) {
      this.s = this.s.slice(n[0].length);
      return Number(n[0]);
    }
    const t = TOKEN.exec(this.s);
    if (t) {
      this.s = this.s.slice(t[0].length);
      return { token: t[0] };
    }
    throw new Error(`unexpected "${this.s.slice(0, 20)}"`);
  }
  private string(): string {
    let out = '';
    for (let i = 1; i < this.s.length; i++) {
      const ch = this.s[i];
      if (ch === '\\') {
        const next = this.s[i + 1];
        if (next !== '"' && next !== '\\') throw new Error('bad escape in string');
        out += next;
        i++;
      } else if (ch === '"') {
        this.s = this.s.slice(i + 1);
        return out;
      } else if (ch < ' ' || ch > '~') {
        throw new Error('non-ASCII or control character in string');
      } else {
        out += ch;
      }
    }
    throw new Error('unterminated string');
  }
  params(): Record<string, BareItem> {
    const out: Record<string, BareItem> = {};
    while (this.s[0] === ';') {
      this.s = this.s.slice(1);
      this.skipSp();
      const k = this.key();
      let v: BareItem = true;
      if (this.s[0] === '=') {
        this.s = this.s.slice(1);
        v = this.bareItem();
      }
      out[k] = v;
    }
    return out;
  }
  member(): DictMember {
    if (this.s[0] === '(') {
      this.s = this.s.slice(1);
      const items: BareItem[] = [];
      for (;;) {
        this.skipSp();
        if (this.s[0] === ')') {
          this.s = this.s.slice(1);
          break;
        }
        items.push(this.bareItem());
        this.params();
        if (this.s[0] !== ' ' && this.s[0] !== ')') throw new Error('bad inner list');
      }
      return { value: items, params: this.params() };
    }
    return { value: this.bareItem(), params: this.params() };
  }
  dictionary(): Record<string, DictMember> {
    const out: Record<string, DictMember> = {};
    this.skipSp();
    while (!this.done()) {
      const k = this.key();
      if (this.s[0] === '=') {
        this.s = this.s.slice(1);
        out[k] = this.member();
      } else {
        out[k] = { value: true, params: this.params() };
      }
      this.skipOws();
      if (this.done()) break;
      if (this.s[0] !== ',') throw new Error(`expected "," at "${this.s.slice(0, 20)}"`);
      this.s = this.s.slice(1);
      this.skipOws();
      if (this.done()) throw new Error('trailing comma');
    }
    return out;
  }
}

export function parseUcpAgent(header: string): UcpAgent {
  if (header.length > 4096) return { ok: false, reason: 'longer than 4096 characters' };
  try {
    const members = new Parser(header.trim()).dictionary();
    const p = members.profile?.value;
    if (p !== undefined && typeof p !== 'string') return { ok: false, reason: 'profile must be a string' };
    if (typeof p === 'string' && !/^https:\/\/\S+$/.test(p)) return { ok: false, reason: 'profile must be an https URL' };
    return { ok: true, profile: typeof p === 'string' ? p : null, members };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}
