/**
 * Test page for the admin's MediaPicker, the way the entry editor embeds it:
 * a button opens the picker with the options given in the address
 * (`?multiple=1&accept=image/*`); the chosen items are shown as JSON.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { MediaItem } from '../../../admin/src/api/media';
import { Button } from '../../../admin/src/components/Button';
import { MediaPicker } from '../../../admin/src/components/media/MediaPicker';
import '../../../admin/src/styles.css';

const params = new URLSearchParams(location.search);

function Harness() {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<MediaItem[]>([]);
  return (
    <main className="page">
      <h1 className="page__title">Picker harness</h1>
      <Button onClick={() => setOpen(true)}>Open picker</Button>
      <pre id="chosen">{JSON.stringify(chosen.map((i) => ({ id: i.id, filename: i.filename })))}</pre>
      <MediaPicker
        open={open}
        onClose={() => setOpen(false)}
        onSelect={setChosen}
        multiple={params.get('multiple') === '1'}
        accept={params.get('accept')?.split(',')}
        title="Choose images"
      />
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <Harness />
    </QueryClientProvider>
  </StrictMode>,
);
