import { useId, type ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card.tsx';

type SectionCardProps = {
  /** The element id, for links to this section (`/settings#password`). */
  id?: string;
  title: string;
  description?: ReactNode;
  /** An icon before the title. */
  icon?: ReactNode;
  className?: string;
  children: ReactNode;
};

/** One titled section of a screen (Settings, Profile): a card that is a named region. */
export function SectionCard({
  id,
  title,
  description,
  icon,
  className,
  children,
}: SectionCardProps) {
  const titleId = useId();
  return (
    <Card
      id={id}
      role="region"
      aria-labelledby={titleId}
      // Clear of the sticky navbar when a link scrolls here.
      className={cn('scroll-mt-20 gap-5', className)}
    >
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2 text-base">
          {icon}
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}
