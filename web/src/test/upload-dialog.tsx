// The upload dialog's tests share a harness: the dialog open, with a line saying whether it is,
// a way to open it again, and the toasts.
import type { ServerConfig } from '@upshot/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Toaster } from '../components/ui/sonner.tsx';
import { UploadDialog } from '../features/uploads/components/upload-dialog.tsx';
import { useUploadQueue } from '../features/uploads/hooks/use-upload-queue.ts';
import { makeServerConfig } from './fixtures.ts';
import { mockApi, type Answers } from './mock-api.ts';
import { createTestQueryClient } from './render-app.tsx';

function Harness({ sleep }: { sleep?: (ms: number) => Promise<void> }) {
  const [open, setOpen] = useState(true);
  const queue = useUploadQueue({ sleep });
  return (
    <>
      <p>{open ? 'dialog open' : 'dialog closed'}</p>
      <button onClick={() => setOpen(true)}>reopen</button>
      <UploadDialog open={open} onOpenChange={setOpen} queue={queue} />
    </>
  );
}

export function renderDialog(
  options: {
    sleep?: (ms: number) => Promise<void>;
    config?: ServerConfig;
    answers?: Answers;
  } = {},
) {
  localStorage.setItem('auth_token', 'tok');
  const network = mockApi({
    config: options.config ?? makeServerConfig(),
    ...options.answers,
  });
  const user = userEvent.setup({ delay: null });
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <Harness sleep={options.sleep} />
      <Toaster />
    </QueryClientProvider>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Upload Files' });
  const input = within(dialog).getByLabelText('Choose files to upload') as HTMLInputElement;
  return { user, dialog, input, ...network };
}

/** A queued file's row, by its name. */
export function row(name: string) {
  return screen.getByRole('listitem', { name });
}

export function findRow(name: string) {
  return screen.findByRole('listitem', { name });
}

/** A file that reports `size` bytes without holding them (jsdom would have to allocate them). */
export function sizedFile(name: string, size: number, type: string) {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
