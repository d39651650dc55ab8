import { ArrowUpFromLine } from 'lucide-react';
import { cn } from '../lib/utils.ts';

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn('flex items-center gap-2 font-semibold tracking-tight', className)}>
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <ArrowUpFromLine className="size-4" aria-hidden="true" />
      </span>
      Upshot
    </span>
  );
}
