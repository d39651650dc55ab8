// Uploads per day as hand-drawn SVG bars: thirty rectangles need no charting library.
import type { DayCount } from '@upshot/contract';
import { formatBytes, formatCount, formatDay } from '../../../lib/format.ts';
import { StatsSection } from './stats-section.tsx';

const plural = (count: number) => `${formatCount(count)} ${count === 1 ? 'upload' : 'uploads'}`;

/** What one bar's tooltip says: `Nov 3: 4 uploads, 1.2 MB`. */
export function describeDay({ date, count, bytes }: DayCount): string {
  return count === 0
    ? `${formatDay(date)}: 0 uploads`
    : `${formatDay(date)}: ${plural(count)}, ${formatBytes(bytes, 1)}`;
}

/** The chart in one sentence, for screen readers (the bars themselves are a picture). */
export function describeSeries(days: readonly DayCount[]): string {
  const span = `Uploads per day over the last ${days.length} days`;
  const total = days.reduce((sum, day) => sum + day.count, 0);
  if (total === 0) return `${span}: no uploads.`;
  const bytes = days.reduce((sum, day) => sum + day.bytes, 0);
  // The latest of the busiest days: the one a reader most likely remembers.
  const busiest = days.reduce((best, day) => (day.count >= best.count ? day : best));
  return (
    `${span}: ${plural(total)} (${formatBytes(bytes, 1)}) in total; ` +
    `busiest day ${formatDay(busiest.date)} with ${plural(busiest.count)}.`
  );
}

// The drawing's own units; the SVG stretches to its box (preserveAspectRatio="none").
const SLOT = 10;
const BAR = 7;
const HEIGHT = 100;

export function UploadsChart({
  days,
  scope,
  level = 2,
}: {
  days: readonly DayCount[];
  /** Whose uploads: the sentence under the title. */
  scope: string;
  level?: 2 | 3;
}) {
  const max = Math.max(1, ...days.map((day) => day.count));
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const first = days[0];
  const middle = days[Math.floor((days.length - 1) / 2)];
  const last = days[days.length - 1];
  return (
    <StatsSection
      title="Uploads per Day"
      level={level}
      description={`${scope}, last ${days.length} days: ${plural(total)}`}
    >
      <div className="flex flex-col gap-2">
        <div className="relative">
          <svg
            role="img"
            aria-label={describeSeries(days)}
            viewBox={`0 0 ${days.length * SLOT} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-28 w-full sm:h-36"
          >
            {days.map((day, index) => {
              // A day with uploads shows at least a sliver; an empty day a faint baseline tick.
              const height = day.count === 0 ? 1.5 : Math.max(4, (day.count / max) * HEIGHT);
              return (
                <g key={day.date} className="group">
                  <title>{describeDay(day)}</title>
                  {/* The whole column answers the pointer, not only the (maybe tiny) bar. */}
                  <rect x={index * SLOT} y={0} width={SLOT} height={HEIGHT} fill="transparent" />
                  <rect
                    x={index * SLOT + (SLOT - BAR) / 2}
                    y={HEIGHT - height}
                    width={BAR}
                    height={height}
                    className={
                      day.count === 0
                        ? 'fill-muted-foreground/25'
                        : 'fill-brand transition-opacity group-hover:opacity-75'
                    }
                  />
                </g>
              );
            })}
          </svg>
          {total === 0 && (
            <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
              No uploads in the last {days.length} days
            </p>
          )}
        </div>
        {first && middle && last && (
          <div
            aria-hidden="true"
            className="flex justify-between text-xs text-muted-foreground tabular-nums"
          >
            <span>{formatDay(first.date)}</span>
            <span>{formatDay(middle.date)}</span>
            <span>{formatDay(last.date)}</span>
          </div>
        )}
      </div>
    </StatsSection>
  );
}
