import { toast } from 'sonner';
import { getApiErrorMessage } from './api-client.ts';

/**
 * The brief's failure text as the toast's title, with the server's reason under it when it
 * gave one (the last administrator, a request decided already).
 */
export function failureToast(title: string, error: unknown): void {
  const reason = getApiErrorMessage(error);
  toast.error(title, reason ? { description: reason } : undefined);
}
