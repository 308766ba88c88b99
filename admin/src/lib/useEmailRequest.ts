import { type FormEvent, useState } from 'react';

/**
 * A form that asks the server to mail a link to an address (sign-in link,
 * sign-up verification): the typed address, busy and error state, and the
 * address the last request went to.
 */
export function useEmailRequest(send: (address: string) => Promise<unknown>, emptyMessage: string) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSentTo(null);
    const address = email.trim();
    if (!address) {
      setError(new Error(emptyMessage));
      return;
    }
    setBusy(true);
    try {
      await send(address);
      setSentTo(address);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return { email, setEmail, busy, error, sentTo, submit };
}
