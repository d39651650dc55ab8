import { useId, type ReactNode } from 'react';
import { cn } from '../../../lib/utils.ts';

/** A titled card of the Dashboard; a region named by its heading, so it can be found by name. */
export function StatsSection({
  title,
  description,
  level = 2,
  className,
  children,
}: {
  title: string;
  description?: ReactNode;
  level?: 2 | 3;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section
      aria-labelledby={id}
      className={cn(
        'flex min-w-0 flex-col gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-5',
        className,
      )}
    >
      <div className="flex flex-col gap-1">
        <Heading id={id} className="leading-none font-semibold">
          {title}
        </Heading>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}
