/** The console's frame: sign-in gate, navigation, the kill-switch banner on every screen, and the current screen. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, call, onUnauthorized, signOut, type KillSwitch } from './api';
import { onLiveEvent, onLiveState, startLive, stopLive, type LiveState } from './live';
import { href, useRoute } from './route';
import { Agents } from './screens/Agents';
import { Approvals } from './screens/Approvals';
import { Connect } from './screens/Connect';
import { Depot } from './screens/Depot';
import { Events } from './screens/Events';
import { Fleet } from './screens/Fleet';
import { Guards } from './screens/Guards';
import { Machine } from './screens/Machine';
import { Purchases } from './screens/Purchases';
import { Replenishment } from './screens/Replenishment';
import { Sales } from './screens/Sales';
import { Today } from './screens/Today';
import { ZONE_NOTE } from './format';
import { dayWords, useServiceDay } from './service-day';
import { SignIn } from './screens/SignIn';

const NAV: [string, string][] = [
  ['today', 'Today'],
  ['fleet', 'Fleet'],
  ['sales', 'Sales'],
  ['replenishment', 'Replenishment'],
  ['depot', 'Depot'],
  ['purchases', 'Purchase orders'],
  ['approvals', 'Approvals'],
  ['guards', 'Guards'],
  ['agents', 'Agents'],
  ['events', 'Live events'],
];

type Auth = 'checking' | 'out' | 'in';

export function App() {
  const [auth, setAuth] = useState<Auth>('checking');
  const [kill, setKill] = useState<KillSwitch | null>(null);
  const [live, setLive] = useState<LiveState>('closed');
  const [menu, setMenu] = useState(false);
  const route = useRoute();
  const today = useServiceDay()?.day;
  useEffect(() => setMenu(false), [route.screen, route.id]);

  const refreshKill = useCallback(async () => {
    try {
      const g = await call(api.GET('/ucp/v1/admin/guards', {}));
      setKill(g.kill_switch);
      setAuth('in');
    } catch {
      /* a 401 signs out through onUnauthorized; other failures leave the last known state */
    }
  }, []);

  useEffect(() => onUnauthorized(() => setAuth('out')), []);
  useEffect(() => {
    void refreshKill().then(() => setAuth((a) => (a === 'checking' ? 'out' : a)));
  }, [refreshKill]);
  useEffect(() => {
    if (auth !== 'in') return;
    startLive();
    const offState = onLiveState(setLive);
    const offEvent = onLiveEvent((e) => {
      if (e.kind === 'kill_switch' || e.kind === 'guard.changed') void refreshKill();
    });
    const poll = window.setInterval(() => void refreshKill(), 30_000);
    return () => {
      offState();
      offEvent();
      window.clearInterval(poll);
      stopLive();
    };
  }, [auth, refreshKill]);

  if (auth === 'checking') return <p class="loading" role="status">Loading…</p>;
  if (auth === 'out') return <SignIn onSignedIn={() => void refreshKill()} />;

  const doSignOut = async () => {
    try {
      await signOut();
    } finally {
      setAuth('out');
    }
  };

  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header>
        <span class="brand">Vending console</span>
        <button type="button" class="menu-button" aria-expanded={menu} aria-controls="screens-nav" onClick={() => setMenu(!menu)}>
          {menu ? 'Close menu' : 'Menu'}
        </button>
        <nav id="screens-nav" aria-label="Screens" class={menu ? 'open' : ''}>
          {NAV.map(([screen, label]) => (
            <a key={screen} href={href(screen)} aria-current={route.screen === screen ? 'page' : undefined} onClick={() => setMenu(false)}>
              {label}
            </a>
          ))}
        </nav>
        <span class={`live ${live}`} title="Event socket">{live === 'open' ? 'live' : live === 'connecting' ? 'connecting' : 'offline'}</span>
        <button type="button" class="signout" onClick={() => void doSignOut()}>Sign out</button>
      </header>
      {kill?.engaged && (
        <div class="kill-banner" role="alert">
          <strong>Kill switch engaged: all spending is stopped.</strong> {kill.reason ? `Reason: ${kill.reason}.` : ''}{' '}
          <a href={href('guards')}>Guards</a>
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <p class="zone muted">
          {today ? `Today is ${dayWords(today)} (the service's day). ` : ''}
          {ZONE_NOTE}
        </p>
        <Screen screen={route.screen} id={route.id} kill={kill} onKillChanged={setKill} />
      </main>
    </>
  );
}

function Screen(p: { screen: string; id: string | null; kill: KillSwitch | null; onKillChanged: (k: KillSwitch) => void }) {
  switch (p.screen) {
    case 'machine':
      return p.id ? <Machine id={p.id} /> : <Fleet />;
    case 'sales':
      return <Sales />;
    case 'replenishment':
      return <Replenishment runId={p.id} />;
    case 'depot':
      return <Depot />;
    case 'purchases':
      return <Purchases sessionId={p.id} />;
    case 'approvals':
      return <Approvals />;
    case 'guards':
      return <Guards kill={p.kill} onKillChanged={p.onKillChanged} />;
    case 'events':
      return <Events />;
    case 'agents':
      return <Agents />;
    case 'connect':
      return p.id ? <Connect uid={p.id} /> : <Agents />;
    case 'fleet':
      return <Fleet />;
    default:
      return <Today />;
  }
}
