import { useState } from 'preact/hooks';
import { signIn } from '../api';
import { Messages, useAction } from '../ui';

/** The operator token goes to the service once, in a POST body; the answer is an HttpOnly cookie. Nothing is stored here. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const action = useAction(async () => {
    await signIn(token);
    setToken('');
    onSignedIn();
  });
  return (
    <main id="main" class="signin">
      <h1>Vending console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void action.go();
        }}
      >
        <label for="token">Operator token</label>
        <input id="token" name="token" type="password" autoComplete="current-password" required value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={action.busy || !token}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <Messages messages={action.messages} title="Sign-in refused:" />
    </main>
  );
}
